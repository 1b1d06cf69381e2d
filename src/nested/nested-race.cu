/* nested-race.cu - the textbook's barrier-free recursive reduction on CDP2: its race, and the ports without one.
 *
 * Question: does the textbook's recursive reduction without its barrier race, and do the race-free ports stay exact with their writers held back?
 * Build: rdc openmp
 * Sanitize: --quick --profile --n 16387 --block 64 --skip-timing-claims
 *
 * nested-reduce's input, chains and checks (reduce.cuh), for three variants: nested (a barrier, then thread 0
 * launches the child), nested-nosync (no barrier: the last writer of the block launches it) and nested-nosync-racy
 * (the textbook's nosync: thread 0 launches right after its own write, so the child can read halves the block's
 * other warps have not written). The racy one runs --repeat times more, each parent's last write and each child's
 * start stamped: wrong sums, and children that started before their parent's last write. --race-delay-us holds
 * back every warp of a level-0 block but warp 0 (the launcher). Claim: the racy nosync races (SKIP when not seen);
 * nested and nested-nosync stay exact under the same delay. speed_vs_nested: what dropping the barrier buys.
 *
 * Run:   make run-nested-race     (2^16, writers held back 50 us: a first level that fits at once; it races)
 *        make run-nested-race ARGS="--n 1048576 --race-delay-us 0"   (children queue behind 2048 blocks: not seen)
 * Nsight Systems: an NVTX range per variant; the trees are only in --trace FILE (e.g. --n 4096).
 */
#include "reduce.cuh"

static const gl_lab_variant variants[] = {
    {"nested", GL_LAB_GPU | GL_LAB_BASELINE}, {"nested-nosync", GL_LAB_GPU}, {"nested-nosync-racy", GL_LAB_GPU}};
static const int ids[] = {V_NESTED, V_NOSYNC, V_RACY};
enum { RACY = 2 }; /* nested-nosync-racy's place in variants */

static long long predicted_launches(const bench *b, int) { return b->chains * (b->levels - 1); }

/* Variant v: its chains, then the partials pass. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    unsigned int top;
    tree t = tree_for(L, b, v, &top);
    run_chains(L, b, v, t, top);
    partials_pass(L, b);
}

/* Run the racy variant --repeat times; count wrong sums, and children that started before their parent's last
 * write. Makes the experiment's claim. */
static void demonstrate_race(gl_lab *L, bench *b, gl_row *row)
{
    size_t cells = (size_t)b->chains * (size_t)b->levels, bytes = cells * sizeof(unsigned long long);
    unsigned long long *h_write = (unsigned long long *)gl_xmalloc(2 * bytes), *h_start = h_write + cells;
    long long wrong = 0, early = 0, children = 0;
    int reps = L->common.repeat;
    for (int i = 0; i < reps; i++) {
        CUDA_CHECK(cudaMemsetAsync(b->t.race_write, 0, bytes, L->stream)); /* on the run's stream: before it */
        CUDA_CHECK(cudaMemsetAsync(b->t.race_start, 0xFF, bytes, L->stream));
        gl_lab_run(L, RACY);
        wrong += b->sum != b->want;
        CUDA_CHECK(cudaMemcpy(h_write, b->t.race_write, bytes, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(h_start, b->t.race_start, bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < cells; i++) /* cell chain * levels + depth: a child against its parent's last write */
            if (i % b->levels) { early += h_start[i] < h_write[i - 1]; children++; }
    }
    gl_row_text(row, "wrong_sums", 0, "%lld of %d", wrong, reps);
    gl_row_text(row, "early_children", 0, "%lld of %lld", early, children);
    const char *text = "nested-nosync-racy races: a child can read halves not yet written";
    if (wrong || early)
        gl_claim_fact(&L->rep, row, GL_CLAIM_ORDERING, 1, text,
                      "%lld of %d runs summed wrong; %lld of %lld children started before their parent's last write",
                      wrong, reps, early, children);
    else
        gl_claim_skip(&L->rep, row, GL_CLAIM_ORDERING, text,
                      "not observed in %d runs (%lld children, none started before its parent's last write); "
                      "to see it, use a first level that fits on the GPU at once and hold back the writers, e.g. "
                      "--n 65536 --race-delay-us 50", reps, children);
    free(h_write);
}

/* The check of v's validation run: the shared checks (the racy sum aside), the tree, and the race. */
static int check_variant(gl_lab *L, int v, gl_row *row, void *ctx)
{
    bench *b = (bench *)ctx;
    int ok = check_tree(L, b, v, row);
    if (records(b, ids[v])) show_tree(L, v);
    if (v == RACY) demonstrate_race(L, b, row);
    return ok;
}

int main(int argc, char **argv)
{
    static bench b;
    static double race_delay_us = 50; /* the defaults show the race: a first level that fits at once, held back */
    b.n = 65536, b.block = 512;
    gl_option opts[] = {REDUCE_OPTIONS(b),
        {"race-delay-us", GL_OPT_DOUBLE, &race_delay_us, 0, 1e5, NULL, NULL,
         "hold back every warp but the first of each level-0 block this long before it writes (nested, nested-nosync, "
         "and the racy variant: a barrier-free launch then reads halves not yet written)", 0}};
    static const gl_experiment exp = {
        "nested-race", "does the textbook's recursive reduction without its barrier race, and do the race-free ports "
        "stay exact with their writers held back?",
        "nested-reduce's sum of --n random ints, for its two race-free chains and the textbook's racy nosync,\n"
        "which runs --repeat times more: wrong sums, and children that started before their parent's last write.\n"
        "The race shows with a first level that fits on the GPU at once, as the defaults have it."};
    gl_lab_spec spec = gl_lab_spec_of(&exp, variants, GL_ARRAY_LEN(variants), opts, GL_ARRAY_LEN(opts), NULL, 0,
                                      run_variant, &b);
    spec.check = check_variant;
    gl_lab L;
    reduce_open(&L, &spec, &b, ids, argc, argv);
    long long cells = L.chosen[RACY] ? b.chains * b.levels : 0;
    b.t.depths = b.levels, b.t.delay_ns = (unsigned long long)(race_delay_us * 1e3);
    const gl_lab_buffer own[] = {{&b.t.race_write, 8.0 * cells, "the race's write stamps"},
                                 {&b.t.race_start, 8.0 * cells, "the race's start stamps"}};
    reduce_check(&L, &b, own, GL_ARRAY_LEN(own));
    if (gl_lab_time(&L)) gl_lab_judge(&L);
    return reduce_close(&L, &b);
}
