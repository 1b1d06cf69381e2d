/* hash-table.cu - the textbook's GPU hash table (one lock per bucket), a lock-free chained one, and open addressing,
 * against a single-threaded CPU table and against the GPU's own limit on random accesses.
 *
 * Question: how fast are inserts and lookups in a chained hash table with a lock per bucket, a lock-free chained one and linear probing, against the CPU and the GPU's random-access limit?
 * Build: openmp
 * Sanitize: --quick --profile --keys 10007 --skip-timing-claims
 *
 * The seed (CUDA by Example, appendix A) builds a chained table: an array of
 * bucket heads, a preallocated pool of entries (insert i takes pool[i]), and a
 * lock per bucket around the push onto the bucket's list; verify_table walks
 * every bucket, rehashes every entry and counts them. It found the GPU no
 * faster than one CPU core. Tables (--table all, the default, or one):
 *   chained-lock      the seed's table, a lock per bucket, taken once per warp
 *                     and bucket (no warp-turn loop, see below): the lanes whose
 *                     keys share a bucket find each other (__match_any_sync); the
 *                     lowest, the leader, takes the lock, makes its entry the head
 *                     and releases; then every lane of the group writes its entry,
 *                     linked to the group's next lane, the last to the old head.
 *   chained-lockfree  the same layout without locks: each thread swaps its entry
 *                     in as the head with atomicExch, then links it to the head
 *                     the exchange returned (why not the textbook's CAS push: below).
 *   open-addressing   linear probing over 8-byte slots {key, value}: the fast
 *                     reference. A key claims the first empty slot from its home
 *                     with atomicCAS, or finds itself there and stops.
 * Operations: insert every key, then look up every inserted key (present) and
 * as many keys that were never inserted (absent). The CPU baseline, written in
 * C, is open addressing with the same hash and the same slots, one thread.
 * Hypothesis: the seed's verdict (360 ms on a Core 2 Duo against 375 ms on its
 * GPU, 26.2 million keys into 1024 buckets) measured its hash and its 1024
 * locks, not the GPU. With a real hash and a bucket per key or two, every table
 * beats the CPU by orders of magnitude, and lookups are bound by random DRAM
 * sectors: open addressing's reach at least half the rate of a plain random
 * gather, and the chained tables pay one more sector per lookup (the head,
 * then the entry).
 *
 * Seed faults not repeated: its hash was key & count (two buckets, one of them
 * past the end; here: murmur3's fmix32, reduced to the range by multiply-shift);
 * its verify_table rehashed the value, not the key; its warp-turn loop assumed
 * pre-Volta warps. Entries link by 32-bit pool index instead of by pointer, so
 * the copy to the host needs no pointer fix-up.
 *
 * Why a lock per warp and bucket, not per thread, and no warp turns. The seed
 * let the 32 lanes of a warp take turns, so that a warp whose lanes spin never
 * starves the lane holding the lock; on sm_70+ (and CUDA 13 builds nothing
 * older) independent thread scheduling already guarantees that lane progress
 * (the warp-turn loop and what it costs are atomic-lock's subject). But a lock
 * taken per thread makes n inserts of one key (--dups 1) n critical sections in
 * a row, each retried by every waiting thread: about n^2/2 CAS on one word.
 * Grouped, one key costs at most n/32 critical sections. A waiting leader reads
 * the lock word and tries the CAS only when it reads free, and between attempts
 * naps (__nanosleep, 32 ns doubling to 2 us), so that thousands of waiting
 * leaders do not queue atomics ahead of the holder's release on the lock word's
 * L2 slice. Measured on the H200 with 2^24 inserts of one key (2^19 critical
 * sections in a row): caps of 0.25, 0.5, 1, 2, 4, 8 and 16 us gave 5.7, 5.2,
 * 3.3, 1.9, 4.1, 6.3 and 8.3 us per critical section, and the CAS without the
 * read (1 us cap) 9.6 (likely: below 2 us the waiters still crowd the slice,
 * above it a freed lock waits for a napping leader to wake). Distinct keys and --dups 65536
 * insert in the same time with caps of 1 to 8 us. It cannot deadlock: only a
 * leader spins, the rest of its group waits at the shuffle that hands out the
 * old head, after the release, and the leaders of a warp's other groups take
 * other locks, so no lane holds a lock at a warp-synchronous point. The
 * critical section is still written inside the spin loop (take the lock, do the
 * work, release, leave the loop): the winner then releases before any point
 * where the compiler may reconverge the warp, so nothing depends on where that
 * point is. A fence after the acquire and before the release, and volatile (L2)
 * accesses to the head, carry the head from one lock holder to the next across
 * SMs. The entries are written after the release: no insert reads another's
 * entry, only later kernels do.
 *
 * Why chained-lockfree exchanges instead of the textbook's CAS push (link to
 * the head last seen, swing the head with atomicCAS, retry with the head it
 * returned). The CAS push keeps the list whole at every instant, which matters
 * only where readers (or deletes) run during inserts; here lookups and the
 * host's checks start after the insert kernel has finished. What the CAS costs
 * instead is retries: when n inserts share a bucket each success fails every
 * other contender's CAS, n^2/2 same-address atomics. atomicExch cannot fail:
 * one atomic per insert, wait-free, whatever the keys; the list is cut at the
 * new entry only until its own next store, within the same kernel.
 *
 * Duplicates leave every insert's work bounded: with every insert one key
 * (--dups 1), chained-lockfree does n exchanges on one head, chained-lock at
 * most n/32 critical sections, open addressing at most one CAS per insert (a
 * key found in its slot ends the probe) and an atomicMin and an atomicAdd on
 * that slot; the host's checks walk each list once. The draft with a CAS push
 * and a lock per thread did not finish --keys 100000 --dups 1 in 60 s; on the
 * H200 that run now takes 0.6 s, and --keys 67108864 --dups 1 56 s
 * (chained-lock's inserts 3.9 s each, 1.9 us per critical section;
 * chained-lockfree's 50 ms). What stays long is a lookup of an absent key whose
 * home is the one full bucket: one thread walks all n entries, one dependent
 * load at a time (the seed's multiset lists are walked to the end on a miss):
 * about 150 ns per entry, 10 s per lookup kernel at 2^26. About n/m such keys
 * are expected, at most 0.9; whether there is one depends on --seed (the
 * default has none at 2^26, --seed 2 has one).
 *
 * Workload. Keys are 32-bit. 0xFFFFFFFF is the empty slot, the end of a list
 * and "not found" at once, and no key can take it: key(x) is a seeded bijection
 * of 32-bit words with key(0xFFFFFFFF) = 0xFFFFFFFF, inserted keys are key(2u)
 * and absent keys key(2j + 1), with u, j < 2^26, so every key differs from the
 * sentinel and no absent key was inserted. --keys N inserts N keys: key(2i) for
 * insert i (all distinct), or with --dups U key(2u) for u drawn uniformly from
 * [0, U) (check.h, seeded: a duplicate-heavy set). Sizes: open addressing has
 * ceil(N / --load) slots, the chained tables ceil(N / --load) buckets; with
 * --dups the occupancy is lower (the distinct keys are printed).
 * What is stored for a duplicate: the chained tables keep every insert (a
 * multiset, like the seed; a lookup returns the value of the first entry of
 * the key on its list); open addressing keeps one slot per key, whose value is
 * the key's first insert (atomicMin of the insert index) and whose count (a
 * parallel array) is its number of inserts. The value of insert i is i.
 *
 * Verification (every table, before anything is timed, and the table of the
 * last timed insert again): chained, like verify_table: every bucket walked,
 * every entry in the bucket its key hashes to, entry i holding insert i's key
 * and value (so every key is present exactly as often as inserted), no entry
 * reached twice, N entries in all. Open addressing: every stored key was
 * inserted, is stored once, is reachable from its home slot (no empty slot in
 * between), with its insert count and first insert; the slots used equal the
 * distinct keys and the counts sum to N. Lookups: present keys return the right
 * value (open addressing and the CPU: the key's first insert; chained: an insert
 * of that key), absent keys return not-found.
 *
 * Model: the random-access limit. A probe that touches a new 32-byte sector at
 * random costs one DRAM sector; rows that stream (keys in, results out) add
 * little. The limit is measured in the same run: a gather of random 8-byte words
 * over a buffer the size of what lookups read (the table's own memory: the slots,
 * or the heads and the pool), many loads in flight per thread, L2 flushed first;
 * its rate in sectors/s is the limit. Each row's sectors per op are counted on
 * the host from the validated table, as the kernel walks it: open addressing,
 * the distinct sectors from the home slot to the key (or to the first empty
 * slot), plus the count word on insert; chained, the head plus each entry
 * visited (16-byte entries: one sector each); on insert the head (lockfree) or
 * the head and the lock word once per group of a warp's lanes with one bucket
 * (chained-lock, counted per warp from the keys), and nothing for the pool
 * writes (insert i writes pool[i]: coalesced). Retries and spins are not
 * counted: the fraction is a lower bound for inserts.
 * Claim: open-addressing lookups of present keys at --load 0.5 reach at least
 * 50% of the limit. It is judged only on distinct keys and where the slots are
 * at least 4x the L2 (2^24 keys: 268 MB); elsewhere it is SKIP with the reason.
 *
 * Run:   make run-hash-table                                  (2^24 keys, load 0.5, every table)
 *        make run-hash-table ARGS="--keys 67108864 --load 0.9 --repeat 5"
 *        make run-hash-table ARGS="--keys 16777216 --dups 65536"   (duplicate-heavy)
 * Timing: each op is one kernel, queued behind a gate kernel so the events time
 * the device; the L2 is flushed before each sample, and again after an insert's
 * table reset. Each row declares its ops (Gelem/s is derived; mops is the same
 * rate in Mops/s) and its bytes: 32 per counted sector plus what it streams
 * (keys in, results or pool entries out): GB/s is mostly random traffic. CPU
 * rows run at most 3 times, without warm-up (an insert of 2^26 keys takes
 * seconds); the reference build and its checks came first.
 * Host time: the CPU table stays one thread (it is the baseline, and inserts
 * in order decide which insert of a key is its first), while the workload's
 * keys, every check of a table and the sector counts run on every host core
 * (OpenMP). A check counts its problems in parallel and, only when there are
 * some, walks again in order to describe the first SHOWN, so that its words
 * are the same on any number of threads.
 * Nsight Systems (make profile-hash-table): NVTX ranges "validate <table>", then
 * "<table> gather" and "<table> <op>" on the stream "hash-table"; lookups run
 * on the validated table, inserts last, each after a reset (two memsets) and a
 * flush. With --dups 1, chained-lock's insert is n/32 critical sections, one at
 * a time, and chained-lockfree's n exchanges on one word, one at a time.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gl_cuda.h"
#include "nvtx.h"
#include "progress.h"

enum { T_LOCK, T_LOCKFREE, T_OA, N_TABLES };
static const char *const table_names[N_TABLES] = {"chained-lock", "chained-lockfree", "open-addressing"};
enum { OP_INSERT, OP_PRESENT, OP_ABSENT, N_OPS, OP_GATHER = N_OPS };
static const char *const op_names[N_OPS] = {"insert", "lookup-present", "lookup-absent"};

enum {
    THREADS = 256,        /* every kernel's block */
    GATHER_UNROLL = 4,    /* independent loads in flight per gather thread */
    SECTOR = 32,          /* bytes: the DRAM access the limit counts */
    SLOTS_PER_SECTOR = 4, /* 8-byte slots */
    ALIGN = 256,          /* sub-arrays of a table's allocation start here */
    SHOWN = 4,            /* problems described in a failed check */
    WARP = 32,            /* lanes; chained-lock groups the lanes of one warp */
    BACKOFF_MIN_NS = 32,  /* chained-lock: a leader's first nap after a failed acquire */
    BACKOFF_MAX_NS = 2048 /* and its longest: the nap doubles up to this (the header says why 2 us) */
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

/* Insert i claims the first empty slot from its key's home, or finds the key
 * there; then the slot keeps the smallest insert index and counts the insert.
 * A slot's key, once set, never changes: a non-empty key read from L2 is final,
 * and an empty one is confirmed by the CAS. A CAS that fails on the same key
 * ends the probe, as does finding it: a slot takes at most one CAS per insert,
 * so n inserts of one key cost n CAS at most, then n atomicMin and n atomicAdd. */
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

/* Probe from the home slot until the key or an empty slot. There is always an
 * empty slot: m > N >= the distinct keys. */
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

/* The seed's add_to_table, a group at a time: the lanes of a warp whose keys
 * share a bucket take its lock once, through their lowest lane (see the header). */
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
                __nanosleep(nap); /* off the lock word (see the header) */
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

/* Push onto the bucket's list with one atomicExch: swap the entry in as the head, then link it to the old
 * head. Wait-free: one atomic per insert whatever the keys (see the header for why not the CAS push). */
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

/* accesses random 8-byte words of region (one sector each), GATHER_UNROLL
 * independent loads in flight per thread; the sum is stored so no load is dropped. */
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

/* key(x): a seeded bijection of 32-bit words that fixes 0xFFFFFFFF (see the header). */
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

/* key(x), never EMPTY for x != EMPTY. */
static unsigned key_of(const keygen *g, unsigned x) { return keygen_mix(g, x) ^ g->fix; }

/* What is inserted and looked up, and what every table must then hold. */
typedef struct workload {
    unsigned n;        /* inserts, and lookups of each kind */
    unsigned universe; /* keys are drawn from key(2u), u < universe: n (distinct) or --dups */
    unsigned distinct; /* universe members drawn at least once */
    unsigned max_mult; /* the most inserts of one key */
    unsigned *uidx;    /* insert i's u */
    unsigned *keys;    /* insert i's key, key(2 uidx[i]) */
    unsigned *absent;  /* absent lookup j's key, key(2j + 1) */
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
        w->keys[i] = key_of(&g, 2 * w->uidx[i]);
        w->absent[i] = key_of(&g, 2 * i + 1);
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

/* Free what make_workload allocated. */
static void free_workload(workload *w)
{
    free(w->uidx);
    free(w->keys);
    free(w->absent);
    free(w->first);
    free(w->mult);
}

/* ---- host: problems found by a check ------------------------------------------------------------- */

/* How many problems a check found, and the first few in words. */
typedef struct problems {
    long long count; /* all of them */
    gl_buf first;    /* the first SHOWN, "; "-separated */
} problems;

/* Count one problem; describe it if it is among the first SHOWN. */
static void note(problems *p, const char *fmt, ...) GL_PRINTF(2, 3);
static void note(problems *p, const char *fmt, ...)
{
    if (p->count++ >= SHOWN) return;
    if (p->first.len) gl_buf_puts(&p->first, "; ");
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(&p->first, fmt, ap);
    va_end(ap);
}

/* Count one problem in *bad and, when p is given, describe it (note): a check's parallel pass
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

/* One table on the device: one allocation, what lookups read first (the gather region), then the rest. */
typedef struct table {
    int kind;                 /* T_LOCK, T_LOCKFREE, T_OA */
    unsigned m;               /* slots (open addressing) or buckets (chained) */
    char *d_mem;              /* the allocation */
    size_t bytes;             /* its size */
    size_t region_bytes;      /* what lookups read: the slots, or the heads and the pool */
    slot *d_slots;            /* open addressing: m slots */
    unsigned *d_counts;       /* open addressing: inserts per slot */
    unsigned *d_heads;        /* chained: m list heads (pool indices) */
    entry *d_pool;            /* chained: n entries, entry i for insert i */
    int *d_locks;             /* chained-lock: one lock per bucket */
    double sectors[N_OPS];    /* random sectors per op, counted on the validated table */
    gl_row *rows[N_OPS];      /* one row per op */
    gl_row *gather;           /* the random-access limit over region_bytes */
} table;

static size_t round_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

/* Lay out (and with d_mem set, point into) a table of kind for n keys in m slots or buckets. */
static void layout(table *t, int kind, unsigned m, unsigned n)
{
    t->kind = kind;
    t->m = m;
    if (kind == T_OA) {
        t->region_bytes = round_up(sizeof(slot) * m);
        t->bytes = t->region_bytes + round_up(sizeof(unsigned) * m);
        t->d_slots = (slot *)t->d_mem;
        t->d_counts = (unsigned *)(t->d_mem + t->region_bytes);
    } else {
        size_t heads = round_up(sizeof(unsigned) * m);
        t->region_bytes = heads + round_up(sizeof(entry) * n);
        t->bytes = t->region_bytes + (kind == T_LOCK ? round_up(sizeof(int) * m) : 0);
        t->d_heads = (unsigned *)t->d_mem;
        t->d_pool = (entry *)(t->d_mem + heads);
        t->d_locks = kind == T_LOCK ? (int *)(t->d_mem + t->region_bytes) : NULL;
    }
}

/* Everything a run needs, handed to the sample functions. */
typedef struct bench {
    workload w;                  /* keys and the reference */
    cpu_table cpu;               /* the baseline, also the reference for open addressing */
    table tables[N_TABLES];      /* the GPU tables */
    gl_device *dev;              /* for the L2 flush */
    cudaStream_t stream;         /* everything runs here */
    gl_event_timer timer;        /* around one kernel */
    gl_gate gate;                /* holds the stream until the kernel is queued */
    double timeout_s;            /* a kernel this long is hung (a lock that is never released) */
    unsigned *d_keys, *d_absent; /* the inserts, and the absent queries */
    unsigned *d_out;             /* lookup results */
    unsigned *h_out, *h_ref;     /* results on the host, and what they must be */
    unsigned long long *d_sink;  /* the gather's sums */
    unsigned gather_blocks;      /* the gather's grid: every SM full */
    unsigned gather_accesses;    /* random words per gather */
    int cur_table, cur_op;       /* what the sample functions run */
} bench;

/* Empty the table: empty slots and zero counts, or empty lists and free locks. */
static void reset_table(bench *b, table *t)
{
    if (t->kind == T_OA) {
        CUDA_CHECK(cudaMemsetAsync(t->d_slots, 0xFF, sizeof(slot) * t->m, b->stream));
        CUDA_CHECK(cudaMemsetAsync(t->d_counts, 0, sizeof(unsigned) * t->m, b->stream));
    } else {
        CUDA_CHECK(cudaMemsetAsync(t->d_heads, 0xFF, sizeof(unsigned) * t->m, b->stream));
        if (t->d_locks) CUDA_CHECK(cudaMemsetAsync(t->d_locks, 0, sizeof(int) * t->m, b->stream));
    }
    gl_stream_wait(b->stream, b->timeout_s, "a table reset");
}

/* Run one op (or the gather) on table t, timed by events behind the gate; returns ms. */
static double run_op(bench *b, table *t, int op)
{
    cudaStream_t s = b->stream;
    unsigned n = b->w.n, grid = (n + THREADS - 1) / THREADS;
    const unsigned *q = op == OP_ABSENT ? b->d_absent : b->d_keys;
    gl_gate_close(&b->gate, s);
    gl_timer_start(&b->timer, s);
    if (op == OP_GATHER)
        gather<<<b->gather_blocks, THREADS, 0, s>>>((const unsigned long long *)t->d_mem,
                                                   (unsigned)(t->region_bytes / 8), b->gather_accesses,
                                                   0x9e3779b9u * (unsigned)(t->kind + 1), b->d_sink);
    else if (op == OP_INSERT && t->kind == T_OA)
        oa_insert<<<grid, THREADS, 0, s>>>(t->d_slots, t->d_counts, t->m, b->d_keys, n);
    else if (op == OP_INSERT && t->kind == T_LOCK)
        chain_insert_lock<<<grid, THREADS, 0, s>>>(t->d_heads, t->d_locks, t->d_pool, t->m, b->d_keys, n);
    else if (op == OP_INSERT)
        chain_insert_lockfree<<<grid, THREADS, 0, s>>>(t->d_heads, t->d_pool, t->m, b->d_keys, n);
    else if (t->kind == T_OA)
        oa_lookup<<<grid, THREADS, 0, s>>>(t->d_slots, t->m, q, n, b->d_out);
    else
        chain_lookup<<<grid, THREADS, 0, s>>>(t->d_heads, t->d_pool, t->m, q, n, b->d_out);
    CUDA_CHECK_LAUNCH("a hash-table kernel");
    gl_timer_stop(&b->timer, s);
    if (!gl_gate_open(&b->gate))
        gl_die(GL_EXIT_INTERNAL, "queueing one kernel took longer than the gate waits: its time would include the host's");
    char what[96];
    snprintf(what, sizeof what, "%s %s", table_names[t->kind], op == OP_GATHER ? "gather" : op_names[op]);
    gl_stream_wait(s, b->timeout_s, what);
    return gl_timer_ms(&b->timer);
}

/* A fresh table, filled by one insert kernel (untimed use: validation). */
static void build_table(bench *b, table *t)
{
    reset_table(b, t);
    run_op(b, t, OP_INSERT);
}

/* ---- host: verification ----------------------------------------------------------------------- */

/* Walk every bucket of a chained table copied back, marking the entries reached in seen (all 0
 * before), and count what is wrong: a link past the pool, an entry reached twice, an entry with
 * the wrong key or value or in the wrong bucket. On every core when p is NULL; in bucket order,
 * describing the problems in p, when it is given. Returns the problems; *found is the entries reached. */
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
static int verify_chained(bench *b, table *t, gl_report *rep, gl_row *row, const char *when)
{
    const workload *w = &b->w;
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
             table_names[t->kind], when);
    snprintf(ok_what, sizeof ok_what, "all %u entries reached", found);
    int ok = report_problems(rep, row, &p, text, ok_what);
    long long lost = 0;
#pragma omp parallel for schedule(static) reduction(+ : lost)
    for (unsigned i = 0; i < w->n; i++) lost += !seen[i];
    for (unsigned i = 0; lost && i < w->n; i++) /* an insert no list reaches was lost (the seed's race without locks) */
        if (!seen[i]) note(&p, "insert %u (key %08x) is in no bucket", i, w->keys[i]);
    snprintf(text, sizeof text, "%s%s: every key present exactly as often as inserted (%u entries, %u inserts)",
             table_names[t->kind], when, found, w->n);
    snprintf(ok_what, sizeof ok_what, "each of the %u inserts once", w->n);
    ok &= report_problems(rep, row, &p, text, ok_what);
    free(heads);
    free(pool);
    free(seen);
    return ok;
}

/* Check every slot of open addressing copied back against the CPU table, counting in seen (all
 * 0 before) how often each CPU slot's key is stored. On every core when p is NULL; in slot order,
 * describing the problems in p, when it is given. Returns the problems; *used and *total are the
 * slots in use and the sum of the counts. */
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
static int verify_oa(bench *b, table *t, gl_report *rep, gl_row *row, const char *when)
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

/* Run a lookup op and check every result: present keys give the right value, absent ones not-found. */
static int check_lookups(bench *b, table *t, int op, gl_report *rep, gl_row *row)
{
    const workload *w = &b->w;
    unsigned *got = b->h_out;
    if (t) {
        run_op(b, t, op);
        CUDA_CHECK(cudaMemcpy(got, b->d_out, sizeof(unsigned) * w->n, cudaMemcpyDeviceToHost));
    } else {
        cpu_lookup(&b->cpu, op == OP_ABSENT ? w->absent : w->keys, w->n, got);
    }
    const char *name = t ? table_names[t->kind] : "cpu";
#pragma omp parallel for schedule(static)
    for (unsigned i = 0; i < w->n; i++) {
        unsigned firsti = w->first[w->uidx[i]];
        if (op == OP_ABSENT) b->h_ref[i] = EMPTY;
        else if (t && t->kind != T_OA) /* chained: any insert of the key (its first on the list) */
            b->h_ref[i] = got[i] < w->n && w->uidx[got[i]] == w->uidx[i] ? got[i] : firsti;
        else b->h_ref[i] = firsti;
    }
    char text[160];
    if (op == OP_ABSENT) snprintf(text, sizeof text, "%s: every absent key is not found", name);
    else if (t && t->kind != T_OA) snprintf(text, sizeof text, "%s: every present key returns an insert of that key", name);
    else snprintf(text, sizeof text, "%s: every present key returns its first insert", name);
    return gl_check_compare(rep, row, text, GL_U32, b->h_ref, got, w->n, 0, 0);
}

/* Check each key's first insert and count in the CPU table: on every core when p is NULL, in
 * insert order describing the problems in p when it is given. Returns the problems. */
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
static int verify_cpu(bench *b, gl_report *rep, gl_row *row)
{
    const workload *w = &b->w;
    problems p = {0, GL_BUF_INIT};
    if (check_cpu_keys(b, NULL)) check_cpu_keys(b, &p); /* again in order, to say what */
    unsigned used = 0;
#pragma omp parallel for schedule(static) reduction(+ : used)
    for (unsigned s = 0; s < b->cpu.m; s++) used += b->cpu.slots[s].key != EMPTY;
    if (used != w->distinct) note(&p, "%u slots used, %u distinct keys", used, w->distinct);
    char ok_what[64];
    snprintf(ok_what, sizeof ok_what, "all %u keys, %u slots used", w->distinct, used);
    return report_problems(rep, row, &p, "cpu: every key stored once, with its insert count and first insert", ok_what);
}

/* ---- host: sectors per op, counted on the validated table -------------------------------------- */

/* Distinct 32-byte sectors of slots from..to (cyclic, both included). */
static unsigned span_sectors(unsigned from, unsigned to, unsigned m)
{
    unsigned a = from / SLOTS_PER_SECTOR, z = to / SLOTS_PER_SECTOR;
    if (to >= from) return z - a + 1;
    return ((m - 1) / SLOTS_PER_SECTOR - a + 1) + z + 1;
}

/* Walk every op as its kernel does and average the random sectors it touches (whole numbers,
 * summed on every core: exact in any order). */
static void count_sectors(bench *b, table *t)
{
    const workload *w = &b->w;
    unsigned long long present = 0, absent = 0, insert = 0;
    if (t->kind == T_OA) {
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
        if (t->kind == T_LOCKFREE) insert = w->n; /* the head */
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

/* ---- host: sampling ----------------------------------------------------------------------------- */

/* One timed GPU sample of the current table and op; an insert starts from an empty table and a cold L2. */
static void sample_gpu(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    table *t = &b->tables[b->cur_table];
    if (b->cur_op == OP_INSERT) {
        reset_table(b, t);
        gl_l2_flush(b->dev); /* the reset left the table's tail in the L2 */
    }
    gl_sample_put(smp, "time", run_op(b, t, b->cur_op) * 1e3);
}

/* One timed CPU sample; an insert starts from an empty table (reset untimed). */
static void sample_cpu(gl_sample *smp, void *arg)
{
    bench *b = (bench *)arg;
    const workload *w = &b->w;
    if (b->cur_op == OP_INSERT) cpu_reset(&b->cpu);
    double t0 = gl_host_ns();
    if (b->cur_op == OP_INSERT) cpu_insert(&b->cpu, w->keys, w->n);
    else cpu_lookup(&b->cpu, b->cur_op == OP_ABSENT ? w->absent : w->keys, w->n, b->h_out);
    gl_sample_put(smp, "time", (gl_host_ns() - t0) / 1e3);
}

/* The median of a row's time, in us (NAN when it has none). */
static double median_us(const gl_row *row)
{
    const gl_value *v = row ? gl_row_find(row, "time") : NULL;
    return v && v->type == GL_VALUE_STATS && v->stats.n > 0 ? v->stats.median : NAN;
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

/* ---- host: main ------------------------------------------------------------------------------- */

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
    unsigned long long keys = 1ULL << 24, dups = 0;
    double load = 0.5;
    int which = 0;
    gl_option opts[] = {
        {"table", GL_OPT_CHOICE, &which, 0, 0, "all|chained-lock|chained-lockfree|open-addressing", NULL,
         "which table to run (the CPU baseline always runs)", 0},
        {"keys", GL_OPT_U64, &keys, 1, MAX_KEYS, NULL, "1048583", "keys to insert, and lookups of each kind (1..2^26)", 0},
        {"load", GL_OPT_DOUBLE, &load, 0.5, 0.9, NULL, NULL,
         "load factor: keys per slot (open addressing) or per bucket (chained)", 0},
        {"dups", GL_OPT_U64, &dups, 0, MAX_KEYS, NULL, NULL,
         "draw the keys from this many keys (duplicate-heavy); 0: every key distinct", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    gl_gate_prepare(); /* before the runtime starts: see gl_cuda.h */
    if (common.trace_path || common.timeline)
        gl_die(GL_EXIT_USAGE, "--trace and --timeline: hash-table records no spans (each op is one kernel, timed by "
                              "events; use make profile-hash-table for a timeline)");
    int run[N_TABLES];
    for (int k = 0; k < N_TABLES; k++) run[k] = which == 0 || which == k + 1; /* the choice list starts with "all" */

    gl_report rep;
    gl_report_init(&rep, exp.name, &common);
    gl_device dev;
    gl_device_open(&dev, &common, &rep);

    bench b;
    memset(&b, 0, sizeof b);
    b.dev = &dev;
    workload *w = &b.w;
    make_workload(w, (unsigned)keys, (unsigned)dups, common.seed);
    unsigned m = (unsigned)ceil((double)w->n / load);
    if (m <= w->n) m = w->n + 1; /* an empty slot always remains: every probe ends */
    /* A kernel past this is hung: generous for the slowest legitimate work, a lock held for each warp's group of
     * one key in turn (a few us each) or a lookup walking every insert of one key, one dependent load at a time. */
    b.timeout_s = 60 + 1e-6 * w->n + 5e-6 * w->max_mult;

    /* ---- memory: everything, checked against what is free before anything is allocated ---- */
    for (int k = 0; k < N_TABLES; k++) layout(&b.tables[k], k, m, w->n);
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gather, THREADS, 0));
    b.gather_blocks = (unsigned)(dev.sms * (per_sm > 0 ? per_sm : 1));
    b.gather_accesses = w->n > (1u << 22) ? w->n : 1u << 22;
    size_t need = 3 * sizeof(unsigned) * (size_t)w->n + sizeof(unsigned long long) * b.gather_blocks * THREADS;
    for (int k = 0; k < N_TABLES; k++)
        if (run[k]) need += b.tables[k].bytes;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (need + 2 * (size_t)dev.l2_bytes + ((size_t)64 << 20) > free_b)
        gl_no_gpu("--keys %u needs %.2f GB of device memory; %.2f GB of %.2f GB is free", w->n, need / 1e9,
                  free_b / 1e9, total_b / 1e9);
    for (int k = 0; k < N_TABLES; k++) {
        if (!run[k]) continue;
        CUDA_CHECK(cudaMalloc((void **)&b.tables[k].d_mem, b.tables[k].bytes));
        layout(&b.tables[k], k, m, w->n);
    }
    CUDA_CHECK(cudaMalloc((void **)&b.d_keys, sizeof(unsigned) * w->n));
    CUDA_CHECK(cudaMalloc((void **)&b.d_absent, sizeof(unsigned) * w->n));
    CUDA_CHECK(cudaMalloc((void **)&b.d_out, sizeof(unsigned) * w->n));
    CUDA_CHECK(cudaMalloc((void **)&b.d_sink, sizeof(unsigned long long) * b.gather_blocks * THREADS));
    CUDA_CHECK(cudaMemcpy(b.d_keys, w->keys, sizeof(unsigned) * w->n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b.d_absent, w->absent, sizeof(unsigned) * w->n, cudaMemcpyHostToDevice));
    b.h_out = (unsigned *)gl_xmalloc(sizeof(unsigned) * w->n);
    b.h_ref = (unsigned *)gl_xmalloc(sizeof(unsigned) * w->n);
    CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    gl_nvtx_name_stream(b.stream, "hash-table");
    gl_timer_create(&b.timer);
    gl_gate_create(&b.gate, !common.skip_timing_claims); /* sanitizers serialize launches: no gate there */

    printf("%u inserts of %u distinct keys (%s, at most %u of one key); %u slots or buckets (load %.2f)\n", w->n,
           w->distinct, dups ? "duplicate-heavy" : "all distinct", w->max_mult, m, load);

    /* ---- the CPU reference, then every GPU table, checked before anything is timed ---- */
    b.cpu.m = m;
    b.cpu.slots = (slot *)gl_xmalloc(sizeof(slot) * m);
    b.cpu.counts = (unsigned *)gl_xmalloc(sizeof(unsigned) * m);
    cpu_reset(&b.cpu);
    cpu_insert(&b.cpu, w->keys, w->n);
    gl_row *cpu_rows[N_OPS];
    int valid = 1;
    for (int op = 0; op < N_OPS; op++) {
        cpu_rows[op] = gl_report_row(&rep, "hash-table", "cpu");
        row_params(cpu_rows[op], op, w->n, load, (unsigned)dups, sizeof(slot) * (size_t)m);
    }
    valid &= verify_cpu(&b, &rep, cpu_rows[OP_INSERT]);
    valid &= check_lookups(&b, NULL, OP_PRESENT, &rep, cpu_rows[OP_PRESENT]);
    valid &= check_lookups(&b, NULL, OP_ABSENT, &rep, cpu_rows[OP_ABSENT]);
    for (int k = 0; k < N_TABLES; k++) {
        if (!run[k]) continue;
        table *t = &b.tables[k];
        for (int op = 0; op < N_OPS; op++) {
            t->rows[op] = gl_report_row(&rep, "hash-table", table_names[k]);
            row_params(t->rows[op], op, w->n, load, (unsigned)dups, t->region_bytes);
        }
        gl_nvtx_push("validate %s", table_names[k]);
        build_table(&b, t);
        int ok = k == T_OA ? verify_oa(&b, t, &rep, t->rows[OP_INSERT], "")
                           : verify_chained(&b, t, &rep, t->rows[OP_INSERT], "");
        ok &= check_lookups(&b, t, OP_PRESENT, &rep, t->rows[OP_PRESENT]);
        ok &= check_lookups(&b, t, OP_ABSENT, &rep, t->rows[OP_ABSENT]);
        if (ok) count_sectors(&b, t);
        valid &= ok;
        gl_nvtx_pop();
    }

    if (valid) {
        /* ---- timing: the CPU (at most 3 runs), then per table the limit, lookups, inserts ---- */
        gl_common cpu_common = common;
        cpu_common.repeat = common.repeat < 3 ? common.repeat : 3;
        cpu_common.warmup = 0; /* the reference build and checks were its warm-up */
        gl_sampler cpu_smp, smp;
        gl_sampler_init(&cpu_smp, &cpu_common);
        gl_sampler_series(&cpu_smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
        gl_device_sampler(&smp, &dev, &common);
        gl_sampler_series(&smp, "time", "us", 1, GL_SHOW_MIN | GL_SHOW_NOISE);
        int tables_run = 0;
        for (int k = 0; k < N_TABLES; k++) tables_run += run[k];
        /* the plan, for the progress line: the CPU's ops, then per table the gather and its ops */
        gl_progress_begin((double)N_OPS * (cpu_smp.warmup + cpu_smp.repeat) +
                              (double)tables_run * (1 + N_OPS) * (smp.warmup + smp.repeat), 0, "timing");
        for (int op = 0; op < N_OPS; op++) {
            b.cur_op = op;
            gl_row_work(cpu_rows[op], "time", 0, w->n);
            gl_sampler_run(&cpu_smp, cpu_rows[op], sample_cpu, &b);
        }
        for (int k = 0; k < N_TABLES; k++) {
            if (!run[k]) continue;
            table *t = &b.tables[k];
            b.cur_table = k;
            gl_nvtx_push("%s gather", table_names[k]);
            t->gather = gl_report_row(&rep, "random-gather", table_names[k]);
            gl_row_param_num(t->gather, "size", "MB", -1, t->region_bytes / 1e6);
            gl_row_param_num(t->gather, "accesses", "", 0, b.gather_accesses);
            gl_row_work(t->gather, "time", (double)SECTOR * b.gather_accesses, b.gather_accesses);
            b.cur_op = OP_GATHER;
            gl_sampler_run(&smp, t->gather, sample_gpu, &b);
            gl_nvtx_pop();
            static const int order[N_OPS] = {OP_PRESENT, OP_ABSENT, OP_INSERT}; /* lookups read the validated table */
            for (int j = 0; j < N_OPS; j++) {
                int op = order[j];
                double streamed = op == OP_INSERT ? (k == T_OA ? 4.0 : 20.0) : 8.0; /* keys in, results or entries out */
                gl_row_work(t->rows[op], "time", ((double)SECTOR * t->sectors[op] + streamed) * w->n, w->n);
                gl_nvtx_push("%s %s", table_names[k], op_names[op]);
                b.cur_op = op;
                gl_sampler_run(&smp, t->rows[op], sample_gpu, &b);
                gl_nvtx_pop();
            }
            if (k == T_OA) verify_oa(&b, t, &rep, t->rows[OP_INSERT], " (the last timed insert)");
            else verify_chained(&b, t, &rep, t->rows[OP_INSERT], " (the last timed insert)");
        }
        gl_progress_end();
        gl_sampler_free(&cpu_smp);
        gl_sampler_free(&smp);

        /* ---- Mops/s, the ratio to the CPU, and the fraction of the random-access limit ---- */
        double cpu_mops[N_OPS];
        for (int op = 0; op < N_OPS; op++) {
            cpu_mops[op] = w->n / median_us(cpu_rows[op]);
            gl_row_number(cpu_rows[op], "mops", "Mops/s", 1, 0, cpu_mops[op]);
        }
        for (int k = 0; k < N_TABLES; k++) {
            if (!run[k]) continue;
            table *t = &b.tables[k];
            double limit = b.gather_accesses / median_us(t->gather) / 1e3; /* Gsectors/s */
            gl_row_number(t->gather, "sector_rate", "Gsectors/s", 2, 0, limit);
            for (int op = 0; op < N_OPS; op++) {
                double mops = w->n / median_us(t->rows[op]), rate = mops * t->sectors[op] / 1e3;
                gl_row_number(t->rows[op], "mops", "Mops/s", 1, 0, mops);
                gl_row_number(t->rows[op], "vs_cpu", "x", 1, 0, mops / cpu_mops[op]);
                gl_row_number(t->rows[op], "sectors_per_op", "", 2, 0, t->sectors[op]);
                gl_row_number(t->rows[op], "sector_rate", "Gsectors/s", 2, 0, rate);
                gl_row_number(t->rows[op], "of_limit", "%", 1, 0, 100 * rate / limit);
            }
        }
        if (run[T_OA]) {
            const char *text = "open-addressing lookups of present keys at load 0.5 reach at least 50% of the "
                               "random-access limit measured in this run";
            table *t = &b.tables[T_OA];
            gl_row *row = t->rows[OP_PRESENT];
            double l2 = (double)dev.l2_bytes;
            if (fabs(load - 0.5) > 1e-9)
                gl_claim_skip(&rep, row, GL_CLAIM_TIMING, text, "judged at --load 0.5; this run used %.2f", load);
            else if (dups)
                gl_claim_skip(&rep, row, GL_CLAIM_TIMING, text, "judged on distinct keys; with --dups %llu the "
                              "lookups repeat %u keys, which the L2 serves", dups, w->distinct);
            else if ((double)t->region_bytes < 4 * l2)
                gl_claim_skip(&rep, row, GL_CLAIM_TIMING, text, "the slots (%.1f MB) are less than 4x the L2 (%.0f MB): "
                              "part of every probe is served by the L2; judged from --keys %.0f",
                              t->region_bytes / 1e6, l2 / 1e6, ceil(4 * l2 / 16));
            else
                gl_claim_at_least(&rep, row, GL_CLAIM_TIMING, text, gl_row_find(row, "of_limit")->number, 50.0, "%");
        }
    }

    gl_timer_destroy(&b.timer);
    gl_gate_destroy(&b.gate);
    for (int k = 0; k < N_TABLES; k++)
        if (b.tables[k].d_mem) CUDA_CHECK(cudaFree(b.tables[k].d_mem));
    void *bufs[] = {b.d_keys, b.d_absent, b.d_out, b.d_sink};
    for (size_t i = 0; i < GL_ARRAY_LEN(bufs); i++) CUDA_CHECK(cudaFree(bufs[i]));
    CUDA_CHECK(cudaStreamDestroy(b.stream));
    free(b.cpu.slots);
    free(b.cpu.counts);
    free(b.h_out);
    free(b.h_ref);
    free_workload(w);
    gl_device_close(&dev);
    return gl_report_finish(&rep);
}
