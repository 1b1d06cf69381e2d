/* hash-table.cu - the textbook's GPU hash table (a lock per bucket), a lock-free chained one and open addressing,
 * against a single-threaded CPU table and against the GPU's own limit on random accesses.
 *
 * Question: how fast are inserts and lookups in a chained hash table with a lock per bucket, a lock-free chained one and linear probing, against the CPU and the GPU's random-access limit?
 * Build: openmp
 * Sanitize: --quick --profile --keys 10007 --skip-timing-claims
 *
 * Variants (--variant, or --table T for the CPU and T alone):
 *   cpu               open addressing in C, one thread, with the same hash and slots: the baseline
 *   chained-lock      the seed's table (CUDA by Example, appendix A): bucket heads, a pool of entries (insert i
 *                     takes pool[i]) and a lock per bucket, taken once per warp and bucket by the group's lowest lane
 *   chained-lockfree  the same lists; each insert swaps its entry in as the head with one atomicExch
 *   open-addressing   linear probing over 8-byte slots {key, value}: a key claims the first empty slot by CAS
 * Configurations, in this order: insert every key; look up every inserted key (lookup-present) and as many keys
 * never inserted (lookup-absent); a random gather over each table's memory (the table random-gather). --keys N
 * inserts N 32-bit keys, hashed by murmur3's fmix32 and multiply-shift into ceil(N / --load) slots or buckets;
 * --dups U draws them from U keys: the chained tables keep every insert (a multiset, like the seed), open
 * addressing one slot per key, holding its first insert and (a parallel array) its count.
 * Hypothesis: the seed found its GPU no faster than one CPU core because of its hash and its 1024 locks; with a
 * real hash every table beats the CPU by orders of magnitude, and lookups are bound by random DRAM sectors.
 * Checks, before anything is timed, and each table's structure again after its timed inserts: chained, the
 * seed's verify_table (every bucket walked, every entry in its key's bucket, every insert exactly once); open
 * addressing, every key inserted, stored once, reachable from its home slot, with its count and first insert;
 * lookups, the right value or not-found.
 * Model: the gather's rate in 32-byte sectors/s is the random-access limit; each row's sectors per op are counted
 * on the host on the table its lookups read. Claim: open-addressing lookups of present keys at --load 0.5 reach
 * at least 50% of that limit, judged on distinct keys where the slots are at least 4x the L2 (2^24 keys).
 * Design notes (the lock per warp, the exchange, duplicates, the workload, the checks, the sector count):
 * experiments/results/FINDINGS.md, "hash-table".
 *
 * Run:   make run-hash-table                                  (2^24 keys, load 0.5, every table)
 *        make run-hash-table ARGS="--keys 67108864 --load 0.9 --repeat 5"
 *        make run-hash-table ARGS="--keys 16777216 --dups 65536"   (duplicate-heavy)
 * Nsight Systems (make profile-hash-table): NVTX ranges "op=<op> variant=<table>" on the stream "hash-table",
 * one kernel each behind the gate kernel, each insert after a reset (two memsets) and an L2 flush. The inserts
 * are timed first, then the lookups on the table of the last timed insert, then the gathers. With --dups 1,
 * chained-lock's insert is n/32 critical sections in a row, chained-lockfree's n exchanges on one word.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_lab.h"

enum { V_CPU, V_LOCK, V_LOCKFREE, V_OA, N_VARIANTS };
static const gl_lab_variant variants[N_VARIANTS] = {
    {"cpu", GL_LAB_HOST}, {"chained-lock", GL_LAB_GPU}, {"chained-lockfree", GL_LAB_GPU},
    {"open-addressing", GL_LAB_GPU}};
enum { OP_INSERT, OP_PRESENT, OP_ABSENT, N_OPS, OP_GATHER = N_OPS }; /* the configurations, added in this order */
static const char *const op_names[N_OPS] = {"insert", "lookup-present", "lookup-absent"};

enum {
    THREADS = 256,         /* every kernel's block */
    GATHER_UNROLL = 4,     /* independent loads in flight per gather thread */
    SECTOR = 32,           /* bytes: the DRAM access the limit counts */
    SLOTS_PER_SECTOR = 4,  /* 8-byte slots */
    ALIGN = 256,           /* sub-arrays of a table's allocation start here */
    SHOWN = 4,             /* problems described in a failed check */
    WARP = 32,             /* lanes; chained-lock groups the lanes of one warp */
    BACKOFF_MIN_NS = 32,   /* chained-lock: a leader's first nap after a failed acquire */
    BACKOFF_MAX_NS = 2048, /* and its longest: the nap doubles up to this (the design notes say why 2 us) */
    SLOW_RUN_MS = 100      /* a check run this long: timed 3 times without warm-up (the CPU at 2^24 keys) */
};
#define FULL_WARP 0xFFFFFFFFu
static_assert(THREADS % WARP == 0, "chained-lock's ballot assumes that every warp of a block is whole");
#define EMPTY 0xFFFFFFFFu /* the empty slot's key, the end of a list, and "not found" */
#define MAX_KEYS (1u << 26)

/* One open-addressing slot: loaded as one 8-byte word by a lookup. */
typedef struct __align__(8) slot {
    unsigned key;   /* EMPTY, or the key */
    unsigned value; /* the key's first insert (EMPTY until one arrives) */
} slot;

/* One pool entry of the chained tables: loaded as one 16-byte word. */
typedef struct __align__(16) entry {
    unsigned key;   /* insert i's key */
    unsigned value; /* i */
    unsigned next;  /* pool index of the next entry of the bucket, or EMPTY */
    unsigned pad;   /* to 16 bytes: one entry never straddles a sector */
} entry;

/* ---- the hash, shared by every table and the CPU ------------------------------------------------ */

/* murmur3's 32-bit finalizer: a bijection that spreads every key bit. */
__host__ __device__ __forceinline__ unsigned hash32(unsigned k)
{
    k ^= k >> 16;
    k *= 0x85ebca6bu;
    k ^= k >> 13;
    k *= 0xc2b2ae35u;
    k ^= k >> 16;
    return k;
}

/* The key's home slot or bucket in [0, m): multiply-shift, so m need not be a power of two. */
__host__ __device__ __forceinline__ unsigned home_of(unsigned key, unsigned m)
{
    return (unsigned)(((unsigned long long)hash32(key) * m) >> 32);
}

/* The slot (or bucket) after s, wrapping at m: the linear probe. */
__host__ __device__ __forceinline__ unsigned next_slot(unsigned s, unsigned m) { return s + 1 == m ? 0 : s + 1; }

/* ---- kernels: open addressing ----------------------------------------------------------------- */

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

/* ---- kernels: the chained tables ---------------------------------------------------------------- */

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

/* ---- kernel: the random-access limit ------------------------------------------------------------ */

/* accesses random 8-byte words of region (one sector each), GATHER_UNROLL independent loads in flight per
 * thread; the sum is stored so no load is dropped. */
__global__ void __launch_bounds__(THREADS) gather(const unsigned long long *__restrict__ region, unsigned words,
                                                  unsigned accesses, unsigned salt, unsigned long long *sink)
{
    unsigned step = gridDim.x * blockDim.x, first = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long acc = 0;
    for (unsigned j = first; j < accesses; j += GATHER_UNROLL * step) {
        unsigned long long v[GATHER_UNROLL];
#pragma unroll
        for (int u = 0; u < GATHER_UNROLL; u++) {
            unsigned a = j + u * step;
            v[u] = a < accesses ? region[home_of(a ^ salt, words)] : 0;
        }
#pragma unroll
        for (int u = 0; u < GATHER_UNROLL; u++) acc += v[u];
    }
    sink[first] = acc;
}

/* ---- the CPU baseline: open addressing in C, one thread ------------------------------------------ */

/* The CPU's table: the same slots and counts as the GPU's open addressing. */
typedef struct cpu_table {
    slot *slots;      /* m slots, as on the GPU */
    unsigned *counts; /* inserts per slot */
    unsigned m;       /* slots */
} cpu_table;

/* Every slot empty, every count zero. */
static void cpu_reset(cpu_table *t)
{
    memset(t->slots, 0xFF, sizeof(slot) * t->m);
    memset(t->counts, 0, sizeof(unsigned) * t->m);
}

/* Insert in order: the first insert of a key claims its slot (and is its smallest index). */
static void cpu_insert(cpu_table *t, const unsigned *keys, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned k = keys[i], s = home_of(k, t->m);
        while (t->slots[s].key != EMPTY && t->slots[s].key != k) s = next_slot(s, t->m);
        if (t->slots[s].key == EMPTY) {
            t->slots[s].key = k;
            t->slots[s].value = i;
        }
        t->counts[s]++;
    }
}

/* The key's slot, or EMPTY. */
static unsigned cpu_find(const cpu_table *t, unsigned k)
{
    unsigned s = home_of(k, t->m);
    while (t->slots[s].key != EMPTY && t->slots[s].key != k) s = next_slot(s, t->m);
    return t->slots[s].key == k ? s : EMPTY;
}

/* Each query's first insert, or EMPTY: what oa_lookup returns. */
static void cpu_lookup(const cpu_table *t, const unsigned *queries, unsigned n, unsigned *out)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned s = cpu_find(t, queries[i]);
        out[i] = s == EMPTY ? EMPTY : t->slots[s].value;
    }
}

/* ---- host: the workload ------------------------------------------------------------------------- */

/* key(x): a seeded bijection of 32-bit words that fixes EMPTY, so no key is the sentinel. */
typedef struct keygen {
    unsigned s0, m1, m2, s1; /* xor, two odd multipliers, add: each step a bijection */
    unsigned fix;            /* mix(EMPTY) ^ EMPTY: xored in, so that key(EMPTY) = EMPTY */
} keygen;

/* The seeded mix: xor, multiply, xorshift, multiply, xorshift, add. */
static unsigned keygen_mix(const keygen *g, unsigned x)
{
    x ^= g->s0;
    x *= g->m1;
    x ^= x >> 16;
    x *= g->m2;
    x ^= x >> 15;
    return x + g->s1;
}

/* What is inserted and looked up, and what every table must then hold. */
typedef struct workload {
    unsigned n;        /* inserts, and lookups of each kind */
    unsigned universe; /* keys are drawn from key(2u), u < universe: n (distinct) or --dups */
    unsigned distinct; /* universe members drawn at least once */
    unsigned max_mult; /* the most inserts of one key */
    unsigned *uidx;    /* insert i's u */
    unsigned *keys;    /* insert i's key, key(2 uidx[i]) */
    unsigned *absent;  /* absent lookup j's key, key(2j + 1): never inserted */
    unsigned *first;   /* per u: its first insert, or EMPTY */
    unsigned *mult;    /* per u: its inserts */
} workload;

/* The keys of --keys, --dups and --seed, and each key's first insert and insert count. */
static void make_workload(workload *w, unsigned n, unsigned dups, unsigned long long seed)
{
    unsigned r[4];
    gl_fill_u32(r, 4, seed, 3, 0, UINT32_MAX);
    keygen g = {r[0], r[1] | 1u, r[2] | 1u, r[3], 0};
    g.fix = keygen_mix(&g, EMPTY) ^ EMPTY;
    w->n = n;
    w->universe = dups ? dups : n;
    w->uidx = (unsigned *)gl_xmalloc(sizeof(unsigned) * n);
    if (dups) gl_fill_u32(w->uidx, n, seed, 1, 0, dups - 1);
    else
        for (unsigned i = 0; i < n; i++) w->uidx[i] = i;
    w->keys = (unsigned *)gl_xmalloc(sizeof(unsigned) * n);
    w->absent = (unsigned *)gl_xmalloc(sizeof(unsigned) * n);
    w->first = (unsigned *)gl_xmalloc(sizeof(unsigned) * w->universe);
    w->mult = (unsigned *)gl_xcalloc(w->universe, sizeof(unsigned));
    memset(w->first, 0xFF, sizeof(unsigned) * w->universe);
    w->distinct = w->max_mult = 0;
#pragma omp parallel for schedule(static)
    for (unsigned i = 0; i < n; i++) {
        w->keys[i] = keygen_mix(&g, 2 * w->uidx[i]) ^ g.fix;
        w->absent[i] = keygen_mix(&g, 2 * i + 1) ^ g.fix;
    }
    for (unsigned i = 0; i < n; i++) { /* in order: the first insert of each key is the smallest index */
        unsigned u = w->uidx[i];
        if (w->first[u] == EMPTY) {
            w->first[u] = i;
            w->distinct++;
        }
        if (++w->mult[u] > w->max_mult) w->max_mult = w->mult[u];
    }
}

/* ---- host: problems found by a check ------------------------------------------------------------- */

/* How many problems a check found, and the first few in words. */
typedef struct problems {
    long long count; /* all of them */
    gl_buf first;    /* the first SHOWN, "; "-separated */
} problems;

/* Count one problem in *bad and, when p is given, describe it among the first SHOWN: a check's parallel pass
 * passes no p and only counts; its ordered pass, run when that count is not 0, words them. */
static void problem(problems *p, long long *bad, const char *fmt, ...) GL_PRINTF(3, 4);
static void problem(problems *p, long long *bad, const char *fmt, ...)
{
    ++*bad;
    if (!p || p->count++ >= SHOWN) return;
    if (p->first.len) gl_buf_puts(&p->first, "; ");
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(&p->first, fmt, ap);
    va_end(ap);
}

/* Record the check, with "all <ok_what>" or the count and the first problems as evidence. */
static int report_problems(gl_report *rep, gl_row *row, problems *p, const char *text, const char *ok_what)
{
    gl_buf ev = GL_BUF_INIT;
    if (p->count == 0) gl_buf_printf(&ev, "%s", ok_what);
    else gl_buf_printf(&ev, "%lld problem%s; first: %s", p->count, p->count == 1 ? "" : "s", gl_buf_str(&p->first));
    int ok = gl_check_evidence(rep, row, p->count == 0, text, gl_buf_str(&ev));
    gl_buf_free(&ev);
    gl_buf_free(&p->first);
    memset(p, 0, sizeof *p);
    return ok;
}

/* ---- host: the GPU tables ------------------------------------------------------------------------ */

/* One table on the device: one allocation, what lookups read first (the gather's region), then the rest. */
typedef struct table {
    int kind;              /* V_LOCK, V_LOCKFREE or V_OA */
    unsigned m;            /* slots (open addressing) or buckets (chained) */
    char *d_mem;           /* the allocation */
    size_t bytes;          /* its size */
    size_t region_bytes;   /* what lookups read: the slots, or the heads and the pool */
    slot *d_slots;         /* open addressing: m slots */
    unsigned *d_counts;    /* open addressing: inserts per slot */
    unsigned *d_heads;     /* chained: m list heads (pool indices) */
    entry *d_pool;         /* chained: n entries, entry i for insert i */
    int *d_locks;          /* chained-lock: one lock per bucket */
    double sectors[N_OPS]; /* random sectors per op, counted on the table the lookups read (NAN until then) */
} table;

static size_t round_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

/* Lay out (and with d_mem set, point into) a table of kind for n keys in m slots or buckets. */
static void layout(table *t, int kind, unsigned m, unsigned n)
{
    t->kind = kind;
    t->m = m;
    if (kind == V_OA) {
        t->region_bytes = round_up(sizeof(slot) * m);
        t->bytes = t->region_bytes + round_up(sizeof(unsigned) * m);
        t->d_slots = (slot *)t->d_mem;
        t->d_counts = (unsigned *)(t->d_mem + t->region_bytes);
    } else {
        size_t heads = round_up(sizeof(unsigned) * m);
        t->region_bytes = heads + round_up(sizeof(entry) * n);
        t->bytes = t->region_bytes + (kind == V_LOCK ? round_up(sizeof(int) * m) : 0);
        t->d_heads = (unsigned *)t->d_mem;
        t->d_pool = (entry *)(t->d_mem + heads);
        t->d_locks = kind == V_LOCK ? (int *)(t->d_mem + t->region_bytes) : NULL;
    }
}

/* Everything a run needs: the lab's ctx. */
typedef struct bench {
    workload w;                  /* keys and the reference */
    cpu_table cpu;               /* the baseline, also the reference for open addressing */
    table tables[N_VARIANTS];    /* the GPU tables, by variant (tables[V_CPU] unused) */
    int table_choice;            /* --table: 0 all, else the variant */
    unsigned *d_keys, *d_absent; /* the inserts, and the absent queries */
    unsigned *d_out;             /* lookup results */
    unsigned *h_out, *h_ref;     /* results on the host, and what they must be */
    unsigned long long *d_sink;  /* the gather's sums */
    unsigned gather_blocks;      /* the gather's grid: every SM full */
    unsigned gather_accesses;    /* random words per gather */
} bench;

/* Before every run, outside its time (the lab's before_run): an insert starts from an empty table (the lab
 * flushes the L2 after this, so the reset leaves nothing of the table there). */
static void before_run(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    if (L->config != OP_INSERT) return;
    if (v == V_CPU) {
        cpu_reset(&b->cpu);
        return;
    }
    const table *t = &b->tables[v];
    if (t->kind == V_OA) {
        CUDA_CHECK(cudaMemsetAsync(t->d_slots, 0xFF, sizeof(slot) * t->m, L->stream));
        CUDA_CHECK(cudaMemsetAsync(t->d_counts, 0, sizeof(unsigned) * t->m, L->stream));
    } else {
        CUDA_CHECK(cudaMemsetAsync(t->d_heads, 0xFF, sizeof(unsigned) * t->m, L->stream));
        if (t->d_locks) CUDA_CHECK(cudaMemsetAsync(t->d_locks, 0, sizeof(int) * t->m, L->stream));
    }
}

/* One run of variant v on configuration L->config (the lab times it): the CPU's op, or one kernel. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    int op = L->config;
    unsigned n = b->w.n, grid = (n + THREADS - 1) / THREADS;
    if (v == V_CPU) {
        if (op == OP_INSERT) cpu_insert(&b->cpu, b->w.keys, n);
        else cpu_lookup(&b->cpu, op == OP_ABSENT ? b->w.absent : b->w.keys, n, b->h_out);
        return;
    }
    const table *t = &b->tables[v];
    cudaStream_t s = L->stream;
    const unsigned *q = op == OP_ABSENT ? b->d_absent : b->d_keys;
    if (op == OP_GATHER)
        gather<<<b->gather_blocks, THREADS, 0, s>>>((const unsigned long long *)t->d_mem,
                                                   (unsigned)(t->region_bytes / 8), b->gather_accesses,
                                                   0x9e3779b9u * (unsigned)v, b->d_sink);
    else if (op == OP_INSERT && v == V_OA) oa_insert<<<grid, THREADS, 0, s>>>(t->d_slots, t->d_counts, t->m, q, n);
    else if (op == OP_INSERT && v == V_LOCK)
        chain_insert_lock<<<grid, THREADS, 0, s>>>(t->d_heads, t->d_locks, t->d_pool, t->m, q, n);
    else if (op == OP_INSERT) chain_insert_lockfree<<<grid, THREADS, 0, s>>>(t->d_heads, t->d_pool, t->m, q, n);
    else if (v == V_OA) oa_lookup<<<grid, THREADS, 0, s>>>(t->d_slots, t->m, q, n, b->d_out);
    else chain_lookup<<<grid, THREADS, 0, s>>>(t->d_heads, t->d_pool, t->m, q, n, b->d_out);
    CUDA_CHECK_LAUNCH("a hash-table kernel");
}

/* ---- host: verification ----------------------------------------------------------------------- */

/* Walk every bucket of a chained table copied back, marking the entries reached in seen (all 0 before), and
 * count what is wrong: a link past the pool, an entry reached twice, an entry with the wrong key or value or in
 * the wrong bucket. On every core when p is NULL; in bucket order, describing the problems in p, when it is
 * given. Returns the problems; *found is the entries reached. */
static long long walk_chained(const table *t, const workload *w, const unsigned *heads, const entry *pool,
                              unsigned char *seen, unsigned *found, problems *p)
{
    long long bad = 0;
    unsigned reached = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : bad, reached) if (!p)
    for (unsigned bk = 0; bk < t->m; bk++)
        for (unsigned e = heads[bk]; e != EMPTY; e = pool[e].next) {
            if (e >= w->n) { problem(p, &bad, "bucket %u links to %u, past the pool of %u", bk, e, w->n); break; }
            if (__atomic_exchange_n(&seen[e], 1, __ATOMIC_RELAXED)) { /* atomic: two walks may meet on one entry */
                problem(p, &bad, "entry %u is reached twice (bucket %u)", e, bk);
                break;
            }
            reached++;
            const entry *x = &pool[e];
            if (x->key != w->keys[e] || x->value != e)
                problem(p, &bad, "entry %u holds key %08x value %u; insert %u was key %08x", e, x->key, x->value, e,
                        w->keys[e]);
            else if (home_of(x->key, t->m) != bk)
                problem(p, &bad, "key %08x hashes to bucket %u but is in bucket %u", x->key, home_of(x->key, t->m), bk);
        }
    *found = reached;
    return bad;
}

/* The seed's verify_table on a chained table, copied back. Returns 1 when every check passed. */
static int verify_chained(const bench *b, const table *t, gl_report *rep, gl_row *row, const char *when)
{
    const workload *w = &b->w;
    const char *name = variants[t->kind].name;
    unsigned *heads = (unsigned *)gl_xmalloc(sizeof(unsigned) * t->m);
    entry *pool = (entry *)gl_xmalloc(sizeof(entry) * w->n);
    unsigned char *seen = (unsigned char *)gl_xcalloc(w->n, 1);
    CUDA_CHECK(cudaMemcpy(heads, t->d_heads, sizeof(unsigned) * t->m, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(pool, t->d_pool, sizeof(entry) * w->n, cudaMemcpyDeviceToHost));
    problems p = {0, GL_BUF_INIT};
    unsigned found = 0;
    if (walk_chained(t, w, heads, pool, seen, &found, NULL)) { /* again in order, to say what */
        memset(seen, 0, w->n);
        walk_chained(t, w, heads, pool, seen, &found, &p);
    }
    char text[160], ok_what[96];
    snprintf(text, sizeof text, "%s%s: every entry holds its insert's key and value, in the bucket its key hashes to",
             name, when);
    snprintf(ok_what, sizeof ok_what, "all %u entries reached", found);
    int ok = report_problems(rep, row, &p, text, ok_what);
    long long lost = 0, worded = 0;
#pragma omp parallel for schedule(static) reduction(+ : lost)
    for (unsigned i = 0; i < w->n; i++) lost += !seen[i];
    for (unsigned i = 0; lost && i < w->n; i++) /* an insert no list reaches was lost (the seed's race without locks) */
        if (!seen[i]) problem(&p, &worded, "insert %u (key %08x) is in no bucket", i, w->keys[i]);
    snprintf(text, sizeof text, "%s%s: every key present exactly as often as inserted (%u entries, %u inserts)", name,
             when, found, w->n);
    snprintf(ok_what, sizeof ok_what, "each of the %u inserts once", w->n);
    ok &= report_problems(rep, row, &p, text, ok_what);
    free(heads);
    free(pool);
    free(seen);
    return ok;
}

/* Check every slot of open addressing copied back against the CPU table, counting in seen (all 0 before) how
 * often each CPU slot's key is stored. On every core when p is NULL; in slot order, describing the problems in
 * p, when it is given. Returns the problems; *used and *total are the slots in use and the sum of the counts. */
static long long check_slots(const bench *b, const table *t, const slot *slots, const unsigned *counts,
                             unsigned char *seen, unsigned *used, unsigned long long *total, problems *p)
{
    long long bad = 0;
    unsigned in_use = 0;
    unsigned long long sum = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : bad, in_use, sum) if (!p)
    for (unsigned s = 0; s < t->m; s++) {
        unsigned k = slots[s].key;
        sum += counts[s];
        if (k == EMPTY) {
            if (counts[s] || slots[s].value != EMPTY)
                problem(p, &bad, "empty slot %u has count %u value %u", s, counts[s], slots[s].value);
            continue;
        }
        in_use++;
        unsigned c = cpu_find(&b->cpu, k);
        if (c == EMPTY) { problem(p, &bad, "slot %u holds key %08x, never inserted", s, k); continue; }
        if (__atomic_fetch_add(&seen[c], 1, __ATOMIC_RELAXED)) problem(p, &bad, "key %08x is stored twice (again in slot %u)", k, s);
        if (slots[s].value != b->cpu.slots[c].value || counts[s] != b->cpu.counts[c])
            problem(p, &bad, "key %08x: first insert %u, count %u; expected %u, %u", k, slots[s].value, counts[s],
                    b->cpu.slots[c].value, b->cpu.counts[c]);
        unsigned h = home_of(k, t->m);
        for (unsigned x = h; x != s; x = next_slot(x, t->m))
            if (slots[x].key == EMPTY) {
                problem(p, &bad, "key %08x in slot %u: slot %u between it and its home %u is empty", k, s, x, h);
                break;
            }
    }
    *used = in_use;
    *total = sum;
    return bad;
}

/* Open addressing copied back, against the CPU table (itself checked against the workload). */
static int verify_oa(const bench *b, const table *t, gl_report *rep, gl_row *row, const char *when)
{
    const workload *w = &b->w;
    slot *slots = (slot *)gl_xmalloc(sizeof(slot) * t->m);
    unsigned *counts = (unsigned *)gl_xmalloc(sizeof(unsigned) * t->m);
    unsigned char *seen = (unsigned char *)gl_xcalloc(b->cpu.m, 1);
    CUDA_CHECK(cudaMemcpy(slots, t->d_slots, sizeof(slot) * t->m, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(counts, t->d_counts, sizeof(unsigned) * t->m, cudaMemcpyDeviceToHost));
    problems p = {0, GL_BUF_INIT};
    unsigned used = 0;
    unsigned long long total = 0;
    if (check_slots(b, t, slots, counts, seen, &used, &total, NULL)) { /* again in order, to say what */
        memset(seen, 0, b->cpu.m);
        check_slots(b, t, slots, counts, seen, &used, &total, &p);
    }
    char text[200], ok_what[128];
    snprintf(text, sizeof text, "open-addressing%s: every stored key was inserted, once, reachable from its home slot, "
             "with its insert count and first insert", when);
    snprintf(ok_what, sizeof ok_what, "all %u keys", used);
    int ok = report_problems(rep, row, &p, text, ok_what);
    ok &= gl_check(rep, row, used == w->distinct && total == w->n,
                   "open-addressing%s: slots used %u = distinct keys %u, counts sum to %llu = inserts %u", when, used,
                   w->distinct, total, w->n);
    free(slots);
    free(counts);
    free(seen);
    return ok;
}

/* A GPU table's structure, copied back: chained or open addressing. */
static int verify_table(const bench *b, const table *t, gl_report *rep, gl_row *row, const char *when)
{
    return t->kind == V_OA ? verify_oa(b, t, rep, row, when) : verify_chained(b, t, rep, row, when);
}

/* Check every result of a lookup run: present keys give the right value, absent ones not-found. */
static int check_lookups(bench *b, int v, int op, gl_report *rep, gl_row *row)
{
    const workload *w = &b->w;
    unsigned *got = b->h_out; /* where the CPU wrote its results */
    int chained = v == V_LOCK || v == V_LOCKFREE;
    if (v != V_CPU) CUDA_CHECK(cudaMemcpy(got, b->d_out, sizeof(unsigned) * w->n, cudaMemcpyDeviceToHost));
#pragma omp parallel for schedule(static)
    for (unsigned i = 0; i < w->n; i++) {
        unsigned firsti = w->first[w->uidx[i]];
        if (op == OP_ABSENT) b->h_ref[i] = EMPTY;
        else if (chained) /* chained: any insert of the key (its first on the list) */
            b->h_ref[i] = got[i] < w->n && w->uidx[got[i]] == w->uidx[i] ? got[i] : firsti;
        else b->h_ref[i] = firsti;
    }
    char text[160];
    snprintf(text, sizeof text, "%s: every %s", variants[v].name,
             op == OP_ABSENT ? "absent key is not found"
             : chained       ? "present key returns an insert of that key"
                             : "present key returns its first insert");
    return gl_check_compare(rep, row, text, GL_U32, b->h_ref, got, w->n, 0, 0);
}

/* Check each key's first insert and count in the CPU table: on every core when p is NULL, in insert order
 * describing the problems in p when it is given. Returns the problems. */
static long long check_cpu_keys(const bench *b, problems *p)
{
    const workload *w = &b->w;
    long long bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad) if (!p)
    for (unsigned i = 0; i < w->n; i++) {
        unsigned u = w->uidx[i];
        if (w->first[u] != i) continue; /* each key once, at its first insert */
        unsigned s = cpu_find(&b->cpu, w->keys[i]);
        if (s == EMPTY) problem(p, &bad, "key %08x (insert %u) not found", w->keys[i], i);
        else if (b->cpu.slots[s].value != i || b->cpu.counts[s] != w->mult[u])
            problem(p, &bad, "key %08x: first insert %u, count %u; expected %u, %u", w->keys[i],
                    b->cpu.slots[s].value, b->cpu.counts[s], i, w->mult[u]);
    }
    return bad;
}

/* The CPU table against the workload alone: each key's count and first insert, and the slots used. */
static int verify_cpu(const bench *b, gl_report *rep, gl_row *row)
{
    const workload *w = &b->w;
    problems p = {0, GL_BUF_INIT};
    long long bad = check_cpu_keys(b, NULL);
    if (bad) check_cpu_keys(b, &p); /* again in order, to say what */
    unsigned used = 0;
#pragma omp parallel for schedule(static) reduction(+ : used)
    for (unsigned s = 0; s < b->cpu.m; s++) used += b->cpu.slots[s].key != EMPTY;
    if (used != w->distinct) problem(&p, &bad, "%u slots used, %u distinct keys", used, w->distinct);
    char ok_what[64];
    snprintf(ok_what, sizeof ok_what, "all %u keys, %u slots used", w->distinct, used);
    return report_problems(rep, row, &p, "cpu: every key stored once, with its insert count and first insert", ok_what);
}

/* The lab's check of variant v after its check run: the structure an insert built, or a lookup's results. */
static int check_variant(gl_lab *L, int v, gl_row *row, void *ctx)
{
    bench *b = (bench *)ctx;
    if (L->config != OP_INSERT) return check_lookups(b, v, L->config, &L->rep, row);
    return v == V_CPU ? verify_cpu(b, &L->rep, row) : verify_table(b, &b->tables[v], &L->rep, row, "");
}

/* ---- host: sectors per op, counted on the verified table -------------------------------------- */

/* Distinct 32-byte sectors of slots from..to (cyclic, both included). */
static unsigned span_sectors(unsigned from, unsigned to, unsigned m)
{
    unsigned a = from / SLOTS_PER_SECTOR, z = to / SLOTS_PER_SECTOR;
    if (to >= from) return z - a + 1;
    return ((m - 1) / SLOTS_PER_SECTOR - a + 1) + z + 1;
}

/* Walk every op as its kernel does and average the random sectors it touches (whole numbers, summed on every
 * core: exact in any order). */
static void count_sectors(const bench *b, table *t)
{
    const workload *w = &b->w;
    unsigned long long present = 0, absent = 0, insert = 0;
    if (t->kind == V_OA) {
        slot *slots = (slot *)gl_xmalloc(sizeof(slot) * t->m);
        CUDA_CHECK(cudaMemcpy(slots, t->d_slots, sizeof(slot) * t->m, cudaMemcpyDeviceToHost));
#pragma omp parallel for schedule(static) reduction(+ : present, absent)
        for (unsigned i = 0; i < w->n; i++) {
            unsigned h = home_of(w->keys[i], t->m), s = h;
            while (slots[s].key != w->keys[i]) s = next_slot(s, t->m); /* verified: it is there */
            present += span_sectors(h, s, t->m);
            h = s = home_of(w->absent[i], t->m);
            while (slots[s].key != EMPTY) s = next_slot(s, t->m);
            absent += span_sectors(h, s, t->m);
        }
        insert = present + w->n; /* the same walk, and the count word */
        free(slots);
    } else {
        unsigned *heads = (unsigned *)gl_xmalloc(sizeof(unsigned) * t->m);
        entry *pool = (entry *)gl_xmalloc(sizeof(entry) * w->n);
        CUDA_CHECK(cudaMemcpy(heads, t->d_heads, sizeof(unsigned) * t->m, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(pool, t->d_pool, sizeof(entry) * w->n, cudaMemcpyDeviceToHost));
#pragma omp parallel for schedule(static) reduction(+ : present, absent)
        for (unsigned i = 0; i < w->n; i++) {
            unsigned visited = 1, e = heads[home_of(w->keys[i], t->m)];
            for (; pool[e].key != w->keys[i]; e = pool[e].next) visited++; /* verified: it is there */
            present += 1 + visited;
            visited = 0;
            for (e = heads[home_of(w->absent[i], t->m)]; e != EMPTY; e = pool[e].next) visited++;
            absent += 1 + visited;
        }
        if (t->kind == V_LOCKFREE) insert = w->n; /* the head */
        else /* the head and the lock word, once per group: a warp's lanes whose keys share a bucket */
#pragma omp parallel for schedule(static) reduction(+ : insert)
            for (unsigned base = 0; base < w->n; base += WARP) {
                unsigned bk[WARP], lanes = w->n - base < (unsigned)WARP ? w->n - base : (unsigned)WARP;
                for (unsigned j = 0; j < lanes; j++) {
                    bk[j] = home_of(w->keys[base + j], t->m);
                    unsigned p = 0;
                    while (bk[p] != bk[j]) p++;
                    if (p == j) insert += 2; /* j leads its group */
                }
            }
        free(heads);
        free(pool);
    }
    t->sectors[OP_INSERT] = (double)insert / w->n;
    t->sectors[OP_PRESENT] = (double)present / w->n;
    t->sectors[OP_ABSENT] = (double)absent / w->n;
}

/* Declare the work of table t's rows: 32 bytes per counted sector (none before they are counted) and what each
 * op streams (keys in, results or pool entries out); GB/s is mostly random traffic. */
static void declare_work(gl_lab *L, const bench *b, const table *t)
{
    for (int op = 0; op < N_OPS; op++) {
        double streamed = op == OP_INSERT ? (t->kind == V_OA ? 4.0 : 20.0) : 8.0;
        double sectors = isnan(t->sectors[op]) ? 0 : t->sectors[op];
        gl_row_work(gl_lab_row(L, op, t->kind), "time", ((double)SECTOR * sectors + streamed) * b->w.n, b->w.n);
    }
}

/* ---- host: main ------------------------------------------------------------------------------- */

/* --table T: the CPU and T alone (of what --variant chose). Before the runtime starts. */
static void options_ok(gl_lab *L, void *ctx)
{
    const bench *b = (const bench *)ctx;
    for (int v = V_LOCK; v < N_VARIANTS && b->table_choice; v++)
        if (v != b->table_choice) gl_lab_drop(L, variants[v].name);
    if (L->n_chosen == 0) gl_die(GL_EXIT_USAGE, "--table and --variant: no variant is in both");
}

/* The configuration's parameters, the same on every row of the hash-table table. */
static void row_params(gl_row *row, int op, unsigned n, double load, unsigned dups, size_t bytes)
{
    gl_row_param(row, "op", "%s", op_names[op]);
    gl_row_param_num(row, "keys", "", 0, n);
    gl_row_param_num(row, "load", "", 2, load);
    if (dups) gl_row_param_num(row, "dups", "", 0, dups);
    else gl_row_param(row, "dups", "distinct");
    gl_row_param_num(row, "size", "MB", -1, bytes / 1e6);
}

/* Mops/s, the ratio to the CPU, and each op's sector rate against the gather's: the fraction of the limit. */
static void add_values(gl_lab *L, const bench *b)
{
    unsigned n = b->w.n;
    double cpu_mops[N_OPS];
    for (int op = 0; op < N_OPS; op++) {
        cpu_mops[op] = n / gl_lab_median(L, op, V_CPU);
        if (gl_lab_row(L, op, V_CPU)) gl_row_number(gl_lab_row(L, op, V_CPU), "mops", "Mops/s", 1, 0, cpu_mops[op]);
    }
    for (int v = V_LOCK; v < N_VARIANTS; v++) {
        if (!gl_lab_row(L, OP_GATHER, v)) continue;
        const table *t = &b->tables[v];
        double limit = b->gather_accesses / gl_lab_median(L, OP_GATHER, v) / 1e3; /* Gsectors/s */
        gl_row_number(gl_lab_row(L, OP_GATHER, v), "sector_rate", "Gsectors/s", 2, 0, limit);
        for (int op = 0; op < N_OPS; op++) {
            gl_row *row = gl_lab_row(L, op, v);
            double mops = n / gl_lab_median(L, op, v), rate = mops * t->sectors[op] / 1e3;
            gl_row_number(row, "mops", "Mops/s", 1, 0, mops);
            if (!isnan(cpu_mops[op])) gl_row_number(row, "vs_cpu", "x", 1, 0, mops / cpu_mops[op]);
            gl_row_number(row, "sectors_per_op", "", 2, 0, t->sectors[op]);
            gl_row_number(row, "sector_rate", "Gsectors/s", 2, 0, rate);
            gl_row_number(row, "of_limit", "%", 1, 0, 100 * rate / limit);
        }
    }
}

/* The claim: open addressing's present lookups reach half the limit, where the run can show it. */
static void judge(gl_lab *L, const bench *b, double load, unsigned long long dups)
{
    gl_row *row = gl_lab_row(L, OP_PRESENT, V_OA);
    if (!row) return;
    const char *text = "open-addressing lookups of present keys at load 0.5 reach at least 50% of the random-access "
                       "limit measured in this run";
    const table *t = &b->tables[V_OA];
    double l2 = (double)L->dev.l2_bytes;
    if (fabs(load - 0.5) > 1e-9)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "judged at --load 0.5; this run used %.2f", load);
    else if (dups)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "judged on distinct keys; with --dups %llu the lookups "
                      "repeat %u keys, which the L2 serves", dups, b->w.distinct);
    else if ((double)t->region_bytes < 4 * l2)
        gl_claim_skip(&L->rep, row, GL_CLAIM_TIMING, text, "the slots (%.1f MB) are less than 4x the L2 (%.0f MB): "
                      "part of every probe is served by the L2; judged from --keys %.0f",
                      t->region_bytes / 1e6, l2 / 1e6, ceil(4 * l2 / 16));
    else
        gl_claim_at_least(&L->rep, row, GL_CLAIM_TIMING, text, gl_row_find(row, "of_limit")->number, 50.0, "%");
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "hash-table",
        "how fast are inserts and lookups in a chained hash table with a lock per bucket, a lock-free chained one "
        "and linear probing, against the CPU and the GPU's random-access limit?",
        "--keys random 32-bit keys are inserted, then looked up (present) and N never-inserted keys looked up\n"
        "(absent); every table is verified like the seed's verify_table before anything is timed. --load sets\n"
        "keys per slot (open addressing) or per bucket (chained). --dups U draws the keys from U keys.\n"
        "The claim (open-addressing present lookups reach 50% of the measured random-access limit) is\n"
        "judged at --load 0.5 on distinct keys with the slots at least 4x the L2."};
    static bench b;
    unsigned long long keys = 1ULL << 24, dups = 0;
    double load = 0.5;
    gl_option opts[] = {
        {"table", GL_OPT_CHOICE, &b.table_choice, 0, 0, "all|chained-lock|chained-lockfree|open-addressing", NULL,
         "which table to run (the CPU baseline always runs)", 0},
        {"keys", GL_OPT_U64, &keys, 1, MAX_KEYS, NULL, "1048583", "keys to insert, and lookups of each kind (1..2^26)", 0},
        {"load", GL_OPT_DOUBLE, &load, 0.5, 0.9, NULL, NULL,
         "load factor: keys per slot (open addressing) or per bucket (chained)", 0},
        {"dups", GL_OPT_U64, &dups, 0, MAX_KEYS, NULL, NULL,
         "draw the keys from this many keys (duplicate-heavy); 0: every key distinct", 0},
    };
    gl_lab_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.exp = exp;
    spec.table = "hash-table", spec.axis = "op"; /* one table of rows; each op a configuration */
    spec.variants = variants, spec.n_variants = N_VARIANTS;
    spec.options = opts, spec.n_options = GL_ARRAY_LEN(opts);
    spec.run = run_variant, spec.before_run = before_run, spec.check = check_variant, spec.ctx = &b;
    spec.options_ok = options_ok; /* --table */
    spec.time_precision = 1, spec.slow_run_ms = SLOW_RUN_MS, spec.no_spans = 1;
    gl_lab L;
    gl_lab_open(&L, &spec, argc, argv);
    workload *w = &b.w;
    make_workload(w, (unsigned)keys, (unsigned)dups, L.common.seed);
    unsigned m = (unsigned)ceil((double)w->n / load);
    if (m <= w->n) m = w->n + 1; /* an empty slot always remains: every probe ends */
    /* A kernel past this is hung: generous for the slowest legitimate work, a lock held for each warp's group of
     * one key in turn (a few us each) or a lookup walking every insert of one key, one dependent load at a time. */
    L.timeout_s = 60 + 1e-6 * w->n + 5e-6 * w->max_mult;

    /* memory: everything, checked against what is free before anything is allocated */
    b.gather_accesses = w->n > (1u << 22) ? w->n : 1u << 22;
    b.gather_blocks = gl_lab_grid(&L, (const void *)gather, THREADS, b.gather_accesses);
    gl_lab_need(&L, 3.0 * sizeof(unsigned) * w->n + sizeof(unsigned long long) * b.gather_blocks * THREADS,
                "--keys %u: the keys, the absent keys, the results, the gather's sums", w->n);
    for (int v = V_LOCK; v < N_VARIANTS; v++) {
        layout(&b.tables[v], v, m, w->n);
        for (int op = 0; op < N_OPS; op++) b.tables[v].sectors[op] = NAN;
        if (L.chosen[v]) gl_lab_need(&L, (double)b.tables[v].bytes, "%s", variants[v].name);
    }
    gl_lab_budget(&L);
    for (int v = V_LOCK; v < N_VARIANTS; v++) {
        if (!L.chosen[v]) continue;
        b.tables[v].d_mem = (char *)gl_lab_malloc(&L, b.tables[v].bytes);
        layout(&b.tables[v], v, m, w->n);
    }
    b.d_keys = (unsigned *)gl_lab_malloc(&L, sizeof(unsigned) * w->n);
    b.d_absent = (unsigned *)gl_lab_malloc(&L, sizeof(unsigned) * w->n);
    b.d_out = (unsigned *)gl_lab_malloc(&L, sizeof(unsigned) * w->n);
    b.d_sink = (unsigned long long *)gl_lab_malloc(&L, sizeof(unsigned long long) * b.gather_blocks * THREADS);
    CUDA_CHECK(cudaMemcpy(b.d_keys, w->keys, sizeof(unsigned) * w->n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b.d_absent, w->absent, sizeof(unsigned) * w->n, cudaMemcpyHostToDevice));
    b.h_out = (unsigned *)gl_xmalloc(sizeof(unsigned) * w->n);
    b.h_ref = (unsigned *)gl_xmalloc(sizeof(unsigned) * w->n);
    b.cpu.m = m;
    b.cpu.slots = (slot *)gl_xmalloc(sizeof(slot) * m);
    b.cpu.counts = (unsigned *)gl_xmalloc(sizeof(unsigned) * m);
    if (!L.chosen[V_CPU]) { /* open addressing's reference (the cpu variant's check run builds it when it runs) */
        cpu_reset(&b.cpu);
        cpu_insert(&b.cpu, w->keys, w->n);
    }
    printf("%u inserts of %u distinct keys (%s, at most %u of one key); %u slots or buckets (load %.2f)\n", w->n,
           w->distinct, dups ? "duplicate-heavy" : "all distinct", w->max_mult, m, load);

    /* the configurations: the inserts, checked by walking each table, then the lookups on those tables */
    int valid = 1;
    gl_lab_plan(&L, N_OPS, 0);
    for (int op = 0; op < N_OPS; op++) {
        gl_lab_add_config(&L, 0, "%s", op_names[op]); /* its index is op */
        for (int v = 0; v < N_VARIANTS; v++)
            if (gl_lab_row(&L, op, v))
                row_params(gl_lab_row(&L, op, v), op, w->n, load, (unsigned)dups,
                           v == V_CPU ? sizeof(slot) * (size_t)m : b.tables[v].region_bytes);
        if (gl_lab_row(&L, op, V_CPU)) gl_row_work(gl_lab_row(&L, op, V_CPU), "time", 0, w->n);
        valid &= gl_lab_check(&L, "%s", op_names[op]); /* check_variant writes each check's text */
    }
    int gpu_only[N_VARIANTS] = {0, 1, 1, 1}, any = 0;
    for (int v = V_LOCK; v < N_VARIANTS; v++) {
        if (!L.chosen[v]) continue;
        declare_work(&L, &b, &b.tables[v]); /* the sectors are counted after the timing */
        any = 1;
    }
    if (valid && any) { /* the random-access limit, over each table's own memory */
        gl_lab_add_config_in(&L, "random-gather", gpu_only, 0, "gather");
        for (int v = V_LOCK; v < N_VARIANTS; v++) {
            gl_row *row = gl_lab_row(&L, OP_GATHER, v);
            if (!row) continue;
            gl_row_param_num(row, "size", "MB", -1, b.tables[v].region_bytes / 1e6);
            gl_row_param_num(row, "accesses", "", 0, b.gather_accesses);
            gl_row_work(row, "time", (double)SECTOR * b.gather_accesses, b.gather_accesses);
        }
    }

    /* time; the lookups read the table of the last timed insert: verify it again, count its sectors, judge */
    if (gl_lab_time(&L)) {
        for (int v = V_LOCK; v < N_VARIANTS; v++) {
            if (!L.chosen[v]) continue;
            table *t = &b.tables[v];
            if (verify_table(&b, t, &L.rep, gl_lab_row(&L, OP_INSERT, v), " (the last timed insert)"))
                count_sectors(&b, t);
            declare_work(&L, &b, t);
        }
        add_values(&L, &b);
        judge(&L, &b, load, dups);
    }
    free(b.cpu.slots);
    free(b.cpu.counts);
    free(b.h_out);
    free(b.h_ref);
    void *host[] = {w->uidx, w->keys, w->absent, w->first, w->mult};
    for (size_t i = 0; i < GL_ARRAY_LEN(host); i++) free(host[i]);
    return gl_lab_close(&L);
}
