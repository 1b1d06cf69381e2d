/* hash-table.cu - the textbook's GPU hash table (a lock per bucket) against a lock-free chained one and the CPU.
 *
 * Question: how fast are inserts and lookups in the seed's chained hash table with a lock per bucket, against a lock-free chained one and the CPU?
 * Build: openmp
 * Sanitize: --quick --profile --keys 10007 --skip-timing-claims
 *
 * Variants (--variant); their configurations, checks and model: hash.cuh.
 *   cpu               hash.cuh's baseline (hash-probing's too)
 *   chained-lock      the seed's table (CUDA by Example, appendix A): bucket heads, a pool of entries (insert i
 *                     takes pool[i]) and a lock per bucket, taken once per warp and bucket by the group's lowest lane
 *   chained-lockfree  the same lists; each insert swaps its entry in as the head with one atomicExch
 * Both keep every insert (a multiset, like the seed). Hypothesis: the seed found its GPU no faster than one CPU
 * core because of its hash and its 1024 locks; with a real hash both beat the CPU by orders of magnitude, and
 * lookups are bound by random DRAM sectors. No claim. Design notes: experiments/results/FINDINGS.md, "hash-table".
 *
 * Run:   make run-hash-table                                  (2^24 keys, load 0.5)
 *        make run-hash-table ARGS="--keys 16777216 --dups 65536"   (duplicate-heavy)
 * Nsight Systems (make profile-hash-table): with --dups 1, chained-lock's insert is n/32 critical sections in a
 * row, chained-lockfree's n exchanges on one word.
 */
#include "hash.cuh"

enum { V_LOCK = V_CPU + 1, V_LOCKFREE, N_VARIANTS };
static const gl_lab_variant variants[N_VARIANTS] = {
    {"cpu", GL_LAB_HOST}, {"chained-lock", GL_LAB_GPU}, {"chained-lockfree", GL_LAB_GPU}};
enum {
    WARP = 32,             /* lanes; chained-lock groups the lanes of one warp */
    BACKOFF_MIN_NS = 32,   /* chained-lock: a leader's first nap after a failed acquire */
    BACKOFF_MAX_NS = 2048  /* and its longest: the nap doubles up to this (the design notes say why 2 us) */
};
#define FULL_WARP 0xFFFFFFFFu
static_assert(THREADS % WARP == 0, "chained-lock's ballot assumes that every warp of a block is whole");

/* One pool entry: loaded as one 16-byte word. */
typedef struct __align__(16) entry {
    unsigned key;   /* insert i's key */
    unsigned value; /* i */
    unsigned next;  /* pool index of the next entry of the bucket, or EMPTY */
    unsigned pad;   /* to 16 bytes: one entry never straddles a sector */
} entry;

/* ---- kernels ------------------------------------------------------------------------------------ */

/* The seed's add_to_table, a group at a time: the lanes of a warp whose keys share a bucket take its lock once,
 * through their lowest lane (the design notes say why, and why it cannot deadlock). */
__global__ void __launch_bounds__(THREADS) chain_insert_lock(unsigned *heads, int *locks, entry *pool, unsigned m,
                                                             const unsigned *__restrict__ keys, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % WARP;
    unsigned in_range = __ballot_sync(FULL_WARP, i < n); /* every lane is here: blocks are whole warps */
    if (i >= n) return;
    unsigned k = keys[i], b = home_of(k, m);
    unsigned group = __match_any_sync(in_range, b), leader = __ffs(group) - 1, old = EMPTY;
    if (lane == leader) { /* the leader alone spins; the rest of the group waits at the shuffle below */
        volatile unsigned *head = heads + b; /* read and written in L2, where the next holder looks */
        unsigned nap = BACKOFF_MIN_NS;
        for (bool done = false; !done;) {
            if (*(volatile int *)&locks[b] == 0 && atomicCAS(&locks[b], 0, 1) == 0) { /* read, CAS only if free */
                __threadfence(); /* acquire: the previous holder's head is visible */
                old = *head;
                *head = i; /* the leader's entry heads the group's run */
                __threadfence(); /* release: the new head is visible before the lock is free */
                atomicExch(&locks[b], 0);
                done = true;
            } else {
                __nanosleep(nap); /* off the lock word, so waiters do not queue ahead of the release */
                nap = nap < BACKOFF_MAX_NS ? 2 * nap : BACKOFF_MAX_NS;
            }
        }
    }
    old = __shfl_sync(group, old, leader);
    /* Each lane links to the next lane of its group (its pool index: the warp's lanes hold consecutive inserts),
     * the group's last lane to the old head. The entries are read only by later kernels: outside the lock. */
    unsigned higher = group & (0xFFFFFFFEu << lane);
    entry e = {k, i, higher ? i - lane + (__ffs(higher) - 1) : old, 0};
    pool[i] = e;
}

/* Push onto the bucket's list with one atomicExch: swap the entry in as the head, then link it to the old head.
 * Wait-free: one atomic per insert whatever the keys (the design notes say why not the CAS push). */
__global__ void __launch_bounds__(THREADS) chain_insert_lockfree(unsigned *heads, entry *pool, unsigned m,
                                                                 const unsigned *__restrict__ keys, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i], b = home_of(k, m), old = atomicExch(&heads[b], i);
    /* Until this store, the list from the new head is cut at entry i. Nothing walks it meanwhile: lookups are
     * a later kernel on the same stream, and the host copies the table only after this kernel has finished. */
    entry e = {k, i, old, 0};
    pool[i] = e;
}

/* Walk the key's list to its first entry of the key. */
__global__ void __launch_bounds__(THREADS) chain_lookup(const unsigned *__restrict__ heads,
                                                        const entry *__restrict__ pool, unsigned m,
                                                        const unsigned *__restrict__ queries, unsigned n,
                                                        unsigned *__restrict__ out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = queries[i], e = heads[home_of(k, m)], v = EMPTY;
    while (e != EMPTY) {
        entry x = pool[e];
        if (x.key == k) { v = x.value; break; }
        e = x.next;
    }
    out[i] = v;
}

/* ---- host: the layout, the runs, the checks and the sector counts --------------------------------------- */

static void layout_own(table *t, int v, unsigned m, unsigned n)
{
    t->region_bytes = round_up(sizeof(unsigned) * m) + round_up(sizeof(entry) * n);
    t->empty_bytes = sizeof(unsigned) * m, t->zero_bytes = v == V_LOCK ? sizeof(int) * m : 0;
}

/* A chained table's pool, after the m heads at base (chained-lock's locks follow it, at region_bytes). */
static entry *pool_of(char *base, const bench *b) { return (entry *)(base + round_up(sizeof(unsigned) * b->m)); }

static void launch_own(const bench *b, int v, int op, const unsigned *q, unsigned grid, cudaStream_t s)
{
    char *d = b->tables[v].d_mem;
    unsigned *heads = (unsigned *)d, n = b->w.n;
    entry *pool = pool_of(d, b);
    if (op != OP_INSERT) chain_lookup<<<grid, THREADS, 0, s>>>(heads, pool, b->m, q, n, b->d_out);
    else if (v == V_LOCK)
        chain_insert_lock<<<grid, THREADS, 0, s>>>(heads, (int *)(d + b->tables[v].region_bytes), pool, b->m, q, n);
    else chain_insert_lockfree<<<grid, THREADS, 0, s>>>(heads, pool, b->m, q, n);
}

/* The seed's verify_table on a chained table (m buckets, a pool of w->n entries): every bucket walked, no link
 * past the pool, no entry reached twice, each holding its insert's key and value in the bucket its key hashes
 * to; then every insert reached (one no list reaches was lost: the seed's race without locks). */
static int check_chained(gl_report *rep, gl_row *row, const workload *w, const unsigned *heads, const entry *pool,
                         unsigned m, const char *name, const char *when)
{
    unsigned char *seen = (unsigned char *)gl_xmalloc(w->n);
    problems p = {0, GL_BUF_INIT};
    long long bad = 0, lost = 0;
    unsigned found = 0;
    for (problems *q = NULL;; q = &p) { /* on every core; again in bucket order, to word the problems, if any */
        bad = 0, found = 0;
        memset(seen, 0, w->n);
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : bad, found) if (!q)
        for (unsigned bk = 0; bk < m; bk++)
            for (unsigned e = heads[bk]; e != EMPTY; e = pool[e].next) {
                if (e >= w->n) { problem(q, &bad, "bucket %u links to %u, past the pool of %u", bk, e, w->n); break; }
                if (__atomic_exchange_n(&seen[e], 1, __ATOMIC_RELAXED)) { /* atomic: two walks may meet on one entry */
                    problem(q, &bad, "entry %u is reached twice (bucket %u)", e, bk);
                    break;
                }
                found++;
                const entry *x = &pool[e];
                if (x->key != w->keys[e] || x->value != e)
                    problem(q, &bad, "entry %u holds key %08x value %u; insert %u was key %08x", e, x->key, x->value,
                            e, w->keys[e]);
                else if (home_of(x->key, m) != bk)
                    problem(q, &bad, "key %08x hashes to bucket %u but is in bucket %u", x->key, home_of(x->key, m),
                            bk);
            }
        if (!bad || q) break;
    }
    char text[160];
    snprintf(text, sizeof text, "%s%s: every entry holds its insert's key and value, in the bucket its key hashes to",
             name, when);
    int ok = report_problems(rep, row, &p, text, "all %u entries reached", found);
    if (memchr(seen, 0, w->n)) /* the inserts no list reaches, in order */
        for (unsigned i = 0; i < w->n; i++)
            if (!seen[i]) problem(&p, &lost, "insert %u (key %08x) is in no bucket", i, w->keys[i]);
    snprintf(text, sizeof text, "%s%s: every key present exactly as often as inserted (%u entries, %u inserts)", name,
             when, found, w->n);
    ok &= report_problems(rep, row, &p, text, "each of the %u inserts once", w->n);
    free(seen);
    return ok;
}

/* Check variant v's lists, copied back to h; when they pass and sectors is given, count the random sectors per
 * insert, present and absent lookup into it, whole numbers summed on every core (exact in any order): the head and
 * each entry visited (16-byte entries: one sector each); on insert the head, and with a lock the lock word as
 * well, once per group of a warp's lanes whose keys share a bucket. Spins are not counted; nor are the pool's
 * writes (insert i writes pool[i]: coalesced). */
static int check_own(const bench *b, int v, char *h, gl_report *rep, gl_row *row, const char *when, double *sectors)
{
    const workload *w = &b->w;
    const unsigned *heads = (const unsigned *)h, m = b->m;
    const entry *pool = pool_of(h, b);
    unsigned long long present = 0, absent = 0, insert = 0;
    int ok = check_chained(rep, row, w, heads, pool, m, variants[v].name, when);
    if (!ok || !sectors) return ok;
#pragma omp parallel for schedule(static) reduction(+ : present, absent, insert)
    for (unsigned i = 0; i < w->n; i++) {
        unsigned k = w->keys[i], visited = 1, e = heads[home_of(k, m)], lead = i - i % WARP;
        for (; pool[e].key != k; e = pool[e].next) visited++; /* verified: it is there */
        present += 1 + visited;
        for (visited = 0, e = heads[home_of(w->absent[i], m)]; e != EMPTY; e = pool[e].next) visited++;
        absent += 1 + visited;
        while (v == V_LOCK && home_of(w->keys[lead], m) != home_of(k, m)) lead++; /* the leader of i's group */
        insert += v != V_LOCK ? 1 : lead == i ? 2 : 0; /* the head; with a lock, the head and the lock once per group */
    }
    sectors[0] = (double)insert / w->n, sectors[1] = (double)present / w->n, sectors[2] = (double)absent / w->n;
    return 1;
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "hash-table",
        "how fast are inserts and lookups in the seed's chained hash table with a lock per bucket, against a "
        "lock-free chained one and the CPU?",
        "--keys random 32-bit keys are inserted, then looked up (present) and N never-inserted keys (absent);\n"
        "every table is verified like the seed's verify_table before anything is timed. --load: keys per bucket."};
    return hash_main(&exp, variants, N_VARIANTS, 1, NULL, argc, argv);
}
