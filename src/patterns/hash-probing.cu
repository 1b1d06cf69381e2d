/* hash-probing.cu - open addressing (linear probing) on the GPU, against the CPU and the GPU's random-access limit.
 *
 * Question: do linear-probing lookups reach half the GPU's random-access limit, and how fast are its inserts and lookups against the CPU?
 * Build: openmp
 * Sanitize: --quick --profile --keys 10007 --skip-timing-claims
 *
 * Variants (--variant); their configurations, checks and model: hash.cuh.
 *   cpu               hash.cuh's baseline (hash-table's too)
 *   open-addressing   linear probing over 8-byte slots {key, value}: a key claims the first empty slot by CAS
 * One slot per key, with its first insert and (a parallel array) its count. Hypothesis: lookups are bound by
 * random DRAM sectors. Claim: open-addressing lookups of present keys at --load 0.5 reach at least 50% of the
 * random-access limit, judged on distinct keys where the slots are at least 4x the L2 (2^24 keys). Design notes:
 * experiments/results/FINDINGS.md, "hash-table".
 *
 * Run:   make run-hash-probing                                (2^24 keys, load 0.5)
 *        make run-hash-probing ARGS="--keys 67108864 --load 0.9 --repeat 5"
 * Nsight Systems (make profile-hash-probing): the lookup kernels beside the gather's, which is the limit.
 */
#include "hash.cuh"

enum { V_OA = V_CPU + 1, N_VARIANTS };
static const gl_lab_variant variants[N_VARIANTS] = {{"cpu", GL_LAB_HOST}, {"open-addressing", GL_LAB_GPU}};

/* ---- kernels ------------------------------------------------------------------------------------ */

/* Insert i claims the first empty slot from its key's home, or finds the key there; then the slot keeps the
 * smallest insert index and counts the insert. A slot's key, once set, never changes, so a non-empty key read
 * from L2 is final and an empty one is confirmed by the CAS; a CAS that fails on the same key ends the probe. */
__global__ void __launch_bounds__(THREADS) oa_insert(slot *slots, unsigned *counts, unsigned m,
                                                     const unsigned *__restrict__ keys, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i], s = home_of(k, m);
    for (;;) {
        unsigned cur = __ldcg(&slots[s].key);
        if (cur == EMPTY) cur = atomicCAS(&slots[s].key, EMPTY, k);
        if (cur == EMPTY || cur == k) break;
        s = next_slot(s, m);
    }
    atomicMin(&slots[s].value, i);
    atomicAdd(&counts[s], 1u);
}

/* Probe from the home slot until the key or an empty slot (there is one: m > N >= the distinct keys). */
__global__ void __launch_bounds__(THREADS) oa_lookup(const slot *__restrict__ slots, unsigned m,
                                                     const unsigned *__restrict__ queries, unsigned n,
                                                     unsigned *__restrict__ out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = queries[i], s = home_of(k, m), v = EMPTY;
    for (;;) {
        slot x = slots[s];
        if (x.key == k) { v = x.value; break; }
        if (x.key == EMPTY) break;
        s = next_slot(s, m);
    }
    out[i] = v;
}

/* ---- host: the layout, the runs, the check and the sector count ----------------------------------------- */

static void layout_own(table *t, int, unsigned m, unsigned)
{
    t->empty_bytes = sizeof(slot) * m, t->region_bytes = round_up(t->empty_bytes), t->zero_bytes = sizeof(unsigned) * m;
}

static void launch_own(const bench *b, int v, int op, const unsigned *q, unsigned grid, cudaStream_t s)
{
    slot *slots = (slot *)b->tables[v].d_mem;
    unsigned *counts = (unsigned *)(b->tables[v].d_mem + b->tables[v].region_bytes);
    if (op == OP_INSERT) oa_insert<<<grid, THREADS, 0, s>>>(slots, counts, b->m, q, b->w.n);
    else oa_lookup<<<grid, THREADS, 0, s>>>(slots, b->m, q, b->w.n, b->d_out);
}

/* Distinct 32-byte sectors of slots from..to (cyclic, both included). */
static unsigned span_sectors(unsigned from, unsigned to, unsigned m)
{
    const unsigned per = SECTOR / sizeof(slot), a = from / per, z = to / per; /* 4 slots a sector */
    return to >= from ? z - a + 1 : ((m - 1) / per - a + 1) + z + 1;
}

/* Check the slots (with the counts) copied back to h; when they pass and sectors is given, count the random
 * sectors per insert, present and absent lookup into it, whole numbers summed on every core (exact in any order):
 * the sectors from the home slot to the key, or to the first empty slot; on insert the same walk and the count
 * word (retries are not counted). */
static int check_own(const bench *b, int v, char *h, gl_report *rep, gl_row *row, const char *when, double *sectors)
{
    const workload *w = &b->w;
    const slot *slots = (const slot *)h;
    const unsigned m = b->m;
    unsigned long long present = 0, absent = 0;
    int ok = check_slots(rep, row, w, slots, (const unsigned *)(h + b->tables[v].region_bytes), m, when);
    if (!ok || !sectors) return ok;
#pragma omp parallel for schedule(static) reduction(+ : present, absent)
    for (unsigned i = 0; i < w->n; i++) { /* present keys are there: verified */
        present += span_sectors(home_of(w->keys[i], m), probe(slots, m, w->keys[i]), m);
        absent += span_sectors(home_of(w->absent[i], m), probe(slots, m, w->absent[i]), m);
    }
    sectors[0] = (double)(present + w->n) / w->n, sectors[1] = (double)present / w->n;
    sectors[2] = (double)absent / w->n;
    return 1;
}

/* ---- the claim, and main ------------------------------------------------------------------------ */

/* The claim: open addressing's present lookups reach half the limit, where the run can show it. */
static void judge(gl_lab *L, const bench *b)
{
    gl_row *row = gl_lab_row(L, OP_PRESENT, V_OA);
    if (!row) return;
    const char *text = "open-addressing lookups of present keys at load 0.5 reach at least 50% of the random-access "
                       "limit measured in this run";
    double l2 = (double)L->dev.l2_bytes, slots = (double)b->tables[V_OA].region_bytes;
    if (fabs(b->load - 0.5) > 1e-9)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "judged at --load 0.5; this run used %.2f", b->load);
    else if (b->dups)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "judged on distinct keys; with --dups %llu the lookups "
                      "repeat %u keys, which the L2 serves", b->dups, b->w.distinct);
    else if (slots < 4 * l2)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "the slots (%.1f MB) are less than 4x the L2 (%.0f MB): "
                      "part of every probe is served by the L2; judged from --keys %.0f",
                      slots / 1e6, l2 / 1e6, ceil(4 * l2 / 16));
    else gl_claim_at_least(&L->rep, row, GL_CLAIM_TIMING, text, gl_row_find(row, "of_limit")->number, 50.0, "%");
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "hash-probing",
        "do linear-probing lookups reach half the GPU's random-access limit, and how fast are its inserts and "
        "lookups against the CPU?",
        "--keys random 32-bit keys are inserted, then looked up (present) and N never-inserted keys (absent);\n"
        "every table is verified before anything is timed. --load: keys per slot. The claim (present lookups reach\n"
        "50% of the measured random-access limit) is judged at --load 0.5 on distinct keys, slots >= 4x the L2."};
    return hash_main(&exp, variants, N_VARIANTS, 0, judge, argc, argv);
}
