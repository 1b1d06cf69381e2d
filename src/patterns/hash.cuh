/* hash.cuh - what hash-table and hash-probing share: the hash and the slot, the CPU baseline (open addressing in C,
 * one thread, in slots like the GPU's), the keys, the checks, the random gather and the harness. Configurations,
 * in this order: insert --keys N keys into ceil(N / --load) slots or buckets (--dups U: drawn from U keys); look up
 * every inserted key (lookup-present) and N never inserted (lookup-absent); a gather of random words over what each
 * GPU table's lookups read (the table random-gather). Model: the gather's rate in 32-byte sectors/s is the GPU's
 * random-access limit; a row's random sectors per op, counted on the host on the table its lookups read, times its
 * ops/s are its % of that limit. Every table is checked against the workload alone (the inserts' keys, each key's
 * first insert and count) before anything is timed, and again after its last timed insert. Nsight Systems: NVTX
 * ranges "op=<op> variant=<table>", one kernel each behind the gate, each insert after a reset and an L2 flush.
 * A check counts its problems on every host core (OpenMP) and, only when there are some, walks again in order to
 * word the first SHOWN, so that its words are the same on any number of threads. */
#ifndef GL_PATTERNS_HASH_CUH
#define GL_PATTERNS_HASH_CUH

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gl_lab.h"

#define EMPTY 0xFFFFFFFFu /* the empty slot's key, the end of a list, and "not found" */
#define MAX_KEYS (1u << 26)
enum {
    THREADS = 256,      /* every kernel's block */
    GATHER_UNROLL = 4,  /* independent loads in flight per gather thread */
    SHOWN = 4,          /* problems described in a failed check */
    SECTOR = 32,        /* bytes: the DRAM access the limit counts */
    ALIGN = 256,        /* each array of a table's allocation starts at a multiple of this */
    SLOW_RUN_MS = 100   /* a check run this long: timed 3 times without warm-up (the CPU at 2^24 keys) */
};
static size_t round_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

/* One open-addressing slot: loaded as one 8-byte word by a lookup. */
typedef struct __align__(8) slot {
    unsigned key;   /* EMPTY, or the key */
    unsigned value; /* the key's first insert (EMPTY until one arrives) */
} slot;

/* ---- the hash, shared by every table and the CPU ------------------------------------------------ */

/* murmur3's 32-bit finalizer: a bijection that spreads every key bit. */
__host__ __device__ __forceinline__ unsigned hash32(unsigned k)
{
    k = (k ^ (k >> 16)) * 0x85ebca6bu;
    k = (k ^ (k >> 13)) * 0xc2b2ae35u;
    return k ^ (k >> 16);
}

/* The key's home slot or bucket in [0, m): multiply-shift, so m need not be a power of two. */
__host__ __device__ __forceinline__ unsigned home_of(unsigned key, unsigned m)
{
    return (unsigned)(((unsigned long long)hash32(key) * m) >> 32);
}

/* The slot (or bucket) after s, wrapping at m: the linear probe. */
__host__ __device__ __forceinline__ unsigned next_slot(unsigned s, unsigned m) { return s + 1 == m ? 0 : s + 1; }

/* ---- the CPU baseline: open addressing in C, one thread, in slots like the GPU's ----------------- */

/* Key k's slot: its own, or the first empty one from its home (there is one: m > the distinct keys). */
static unsigned probe(const slot *slots, unsigned m, unsigned k)
{
    unsigned s = home_of(k, m);
    while (slots[s].key != EMPTY && slots[s].key != k) s = next_slot(s, m);
    return s;
}

/* Insert in order into empty slots and zero counts: the first insert of a key claims its slot (and is its
 * smallest index). */
static void cpu_insert(slot *slots, unsigned *counts, unsigned m, const unsigned *keys, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned s = probe(slots, m, keys[i]);
        if (slots[s].key == EMPTY) slots[s].key = keys[i], slots[s].value = i;
        counts[s]++;
    }
}

/* Each query's first insert, or EMPTY (an empty slot's value): what oa_lookup returns. */
static void cpu_lookup(const slot *slots, unsigned m, const unsigned *queries, unsigned n, unsigned *out)
{
    for (unsigned i = 0; i < n; i++) out[i] = slots[probe(slots, m, queries[i])].value;
}

/* ---- the workload ------------------------------------------------------------------------------- */

/* What is inserted and looked up, and what every table must then hold (one allocation, at uidx). */
typedef struct workload {
    unsigned n;        /* inserts, and lookups of each kind */
    unsigned universe; /* keys are drawn from key(2u), u < universe: n (distinct) or --dups */
    unsigned distinct; /* universe members drawn at least once */
    unsigned max_mult; /* the most inserts of one key */
    unsigned *uidx;    /* insert i's u */
    unsigned *keys;    /* insert i's key, key(2 uidx[i]) */
    unsigned *absent;  /* absent lookup j's key, key(2j + 1): never inserted; right after keys */
    unsigned *first;   /* per u: its first insert, or EMPTY */
    unsigned *mult;    /* per u: its inserts */
} workload;

/* The keys of --keys, --dups and --seed, and each key's first insert and insert count. key(x) is a seeded
 * bijection of 32-bit words that fixes EMPTY, so no key is the sentinel: a mix (xor, odd multiply, xorshift, odd
 * multiply, xorshift, add: each step a bijection), xored with mix(EMPTY) ^ EMPTY. */
static void make_workload(workload *w, unsigned n, unsigned dups, unsigned long long seed)
{
    unsigned r[4];
    gl_fill_u32(r, 4, seed, 3, 0, UINT32_MAX);
    auto mix = [&r](unsigned x) {
        x = (x ^ r[0]) * (r[1] | 1u);
        x = (x ^ (x >> 16)) * (r[2] | 1u);
        return (x ^ (x >> 15)) + r[3];
    };
    unsigned fix = mix(EMPTY) ^ EMPTY;
    memset(w, 0, sizeof *w);
    w->n = n, w->universe = dups ? dups : n;
    w->uidx = (unsigned *)gl_xcalloc(3 * (size_t)n + 2 * (size_t)w->universe, sizeof(unsigned)); /* mult: 0 */
    w->keys = w->uidx + n, w->absent = w->keys + n, w->first = w->absent + n, w->mult = w->first + w->universe;
    memset(w->first, 0xFF, sizeof(unsigned) * w->universe);
    if (dups) gl_fill_u32(w->uidx, n, seed, 1, 0, dups - 1);
#pragma omp parallel for schedule(static)
    for (unsigned i = 0; i < n; i++) {
        if (!dups) w->uidx[i] = i;
        w->keys[i] = mix(2 * w->uidx[i]) ^ fix;
        w->absent[i] = mix(2 * i + 1) ^ fix;
    }
    for (unsigned i = 0; i < n; i++) { /* in order: the first insert of each key is the smallest index */
        unsigned u = w->uidx[i];
        if (w->first[u] == EMPTY) w->first[u] = i, w->distinct++;
        if (++w->mult[u] > w->max_mult) w->max_mult = w->mult[u];
    }
}

/* ---- problems found by a check ------------------------------------------------------------------ */

/* How many problems a check found, and the first few in words. */
typedef struct problems {
    long long count; /* all of them */
    gl_buf first;    /* the first SHOWN, "; "-separated */
} problems;

/* Count one problem in *bad and, when p is given, describe it among the first SHOWN: a check's parallel pass
 * passes no p and only counts; its ordered pass, run when that count is not 0, words them. */
GL_PRINTF(3, 4) static void problem(problems *p, long long *bad, const char *fmt, ...)
{
    ++*bad;
    if (!p || p->count++ >= SHOWN) return;
    if (p->first.len) gl_buf_puts(&p->first, "; ");
    va_list ap;
    va_start(ap, fmt);
    gl_buf_vprintf(&p->first, fmt, ap);
    va_end(ap);
}

/* Record the check, with the count and the first problems as evidence, or when there are none ok_fmt's words;
 * p is emptied for the next check. */
GL_PRINTF(5, 6) static int report_problems(gl_report *rep, gl_row *row, problems *p, const char *text,
                                           const char *ok_fmt, ...)
{
    gl_buf ev = GL_BUF_INIT;
    va_list ap;
    va_start(ap, ok_fmt);
    if (p->count == 0) gl_buf_vprintf(&ev, ok_fmt, ap);
    else gl_buf_printf(&ev, "%lld problem%s; first: %s", p->count, p->count == 1 ? "" : "s", gl_buf_str(&p->first));
    va_end(ap);
    int ok = gl_check_evidence(rep, row, p->count == 0, text, gl_buf_str(&ev));
    gl_buf_free(&ev);
    gl_buf_free(&p->first);
    memset(p, 0, sizeof *p);
    return ok;
}

/* ---- the checks: open-addressing slots, and lookups ---------------------------------------------- */

/* Open-addressing slots (m, with their counts) against the workload: every stored key was inserted (its slot's
 * first insert is an insert of it), is stored once, reachable from its home slot (no empty slot between), with its
 * first insert and its count, and an empty slot holds nothing; then the slots used and the counts add up. when is
 * NULL for the CPU's table (one check), else what follows the GPU table's name in its two checks. */
static int check_slots(gl_report *rep, gl_row *row, const workload *w, const slot *slots, const unsigned *counts,
                       unsigned m, const char *when)
{
    unsigned char *seen = (unsigned char *)gl_xmalloc(w->universe);
    problems p = {0, GL_BUF_INIT};
    long long bad = 0;
    unsigned used = 0;
    unsigned long long total = 0;
    for (problems *q = NULL;; q = &p) { /* on every core; again in slot order, to word the problems, if any */
        bad = 0, used = 0, total = 0;
        memset(seen, 0, w->universe);
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : bad, used, total) if (!q)
        for (unsigned s = 0; s < m; s++) {
            unsigned k = slots[s].key, v = slots[s].value, c = counts[s], h = home_of(k, m);
            total += c;
            if (k == EMPTY) {
                if (c || v != EMPTY) problem(q, &bad, "empty slot %u has count %u value %u", s, c, v);
                continue;
            }
            used++;
            if (v >= w->n || w->keys[v] != k) {
                problem(q, &bad, "slot %u holds key %08x with first insert %u, not an insert of that key", s, k, v);
                continue;
            }
            unsigned u = w->uidx[v];
            if (__atomic_fetch_add(&seen[u], 1, __ATOMIC_RELAXED))
                problem(q, &bad, "key %08x is stored twice (again in slot %u)", k, s);
            if (v != w->first[u] || c != w->mult[u])
                problem(q, &bad, "key %08x: first insert %u, count %u; expected %u, %u", k, v, c, w->first[u],
                        w->mult[u]);
            for (unsigned x = h; x != s; x = next_slot(x, m))
                if (slots[x].key == EMPTY) {
                    problem(q, &bad, "key %08x in slot %u: slot %u between it and its home %u is empty", k, s, x, h);
                    break;
                }
        }
        if (!bad || q) break;
    }
    free(seen);
    if (!when) { /* the CPU's table */
        if (used != w->distinct) problem(&p, &bad, "%u slots used, %u distinct keys", used, w->distinct);
        return report_problems(rep, row, &p, "cpu: every key stored once, with its insert count and first insert",
                               "all %u keys, %u slots used", w->distinct, used);
    }
    char text[200];
    snprintf(text, sizeof text, "open-addressing%s: every stored key was inserted, once, reachable from its home slot, "
             "with its insert count and first insert", when);
    int ok = report_problems(rep, row, &p, text, "all %u keys", used);
    return ok & gl_check(rep, row, used == w->distinct && total == w->n,
                         "open-addressing%s: slots used %u = distinct keys %u, counts sum to %llu = inserts %u", when,
                         used, w->distinct, total, w->n);
}

/* A lookup run's results (got) against the workload, the reference written to ref: absent keys are not found,
 * present ones return the key's first insert, or with chained set any insert of the key (its first on the list). */
static int check_lookups(gl_report *rep, gl_row *row, const workload *w, const char *name, int absent, int chained,
                         const unsigned *got, unsigned *ref)
{
#pragma omp parallel for schedule(static)
    for (unsigned i = 0; i < w->n; i++) {
        unsigned u = w->uidx[i], g = got[i];
        ref[i] = absent ? EMPTY : chained && g < w->n && w->uidx[g] == u ? g : w->first[u];
    }
    char text[160];
    snprintf(text, sizeof text, "%s: every %s", name, absent ? "absent key is not found"
             : chained ? "present key returns an insert of that key" : "present key returns its first insert");
    return gl_check_compare(rep, row, text, GL_U32, ref, got, w->n, 0, 0);
}

/* ---- the random-access limit --------------------------------------------------------------------- */

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

/* ---- the harness: the device tables, one run, the checks, the values ------------------------------------ */

enum { V_CPU, MAX_VARIANTS = 3 }; /* each experiment's variant 0 is the CPU, then (at most 2) GPU tables */
enum { OP_INSERT, OP_PRESENT, OP_ABSENT, N_OPS, OP_GATHER = N_OPS }; /* the configurations, added in this order */
static const char *const op_names[N_OPS] = {"insert", "lookup-present", "lookup-absent"};

/* One table on the device: one allocation, what lookups read first (the gather's region), then the rest. */
typedef struct table {
    char *d_mem;           /* the allocation */
    size_t bytes;          /* its size */
    size_t region_bytes;   /* what lookups read: the slots, or the heads and the pool */
    size_t empty_bytes;    /* from the start, set to 0xFF before an insert: the slots or the heads */
    size_t zero_bytes;     /* after the region, set to 0 before an insert: the counts or the locks (0: none) */
    double sectors[N_OPS]; /* random sectors per op, counted on the table the lookups read (NAN until then) */
} table;

/* Everything a run needs: the lab's ctx. */
typedef struct bench {
    workload w;                          /* keys and the reference */
    unsigned m;                          /* slots or buckets, in every table */
    slot *cpu_slots;                     /* the CPU's table: m slots, as on the GPU */
    unsigned *cpu_counts;                /* and inserts per slot */
    table tables[MAX_VARIANTS];          /* the GPU tables, by variant (tables[V_CPU] unused) */
    int chained;                         /* the GPU tables are chained lists (a lookup returns any insert) */
    unsigned long long keys, dups;       /* --keys, --dups */
    double load;                         /* --load */
    unsigned *d_keys, *d_absent, *d_out; /* the inserts, the absent queries (after them), the lookups' results */
    unsigned *h_out, *h_ref;             /* results on the host, and what they must be */
    unsigned long long *d_sink;          /* the gather's sums */
    unsigned gather_blocks, gather_accesses; /* the gather's grid (every SM full), and its random words */
} bench;

/* Each experiment's own: variant v's layout (region_bytes, empty_bytes, zero_bytes), its insert or lookup kernel
 * on queries q, and the check of its table copied back to h (when it passes, its sectors per op into sectors). */
static void layout_own(table *t, int v, unsigned m, unsigned n);
static void launch_own(const bench *b, int v, int op, const unsigned *q, unsigned grid, cudaStream_t s);
static int check_own(const bench *b, int v, char *h, gl_report *rep, gl_row *row, const char *when, double *sectors);

/* Before every run, outside its time (the lab's before_run): an insert starts from an empty table (the lab
 * flushes the L2 after this, so the reset leaves nothing of the table there). */
static void before_run(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    const table *t = &b->tables[v];
    if (L->config != OP_INSERT) return;
    if (v == V_CPU) { /* every slot empty, every count zero */
        memset(b->cpu_slots, 0xFF, sizeof(slot) * b->m);
        memset(b->cpu_counts, 0, sizeof(unsigned) * b->m);
        return;
    }
    CUDA_CHECK(cudaMemsetAsync(t->d_mem, 0xFF, t->empty_bytes, L->stream)); /* the slots or the heads empty */
    if (t->zero_bytes) CUDA_CHECK(cudaMemsetAsync(t->d_mem + t->region_bytes, 0, t->zero_bytes, L->stream));
}

/* One run of variant v on configuration L->config (the lab times it): the CPU's op, or one kernel. */
static void run_variant(gl_lab *L, int v, void *ctx)
{
    bench *b = (bench *)ctx;
    int op = L->config;
    unsigned n = b->w.n;
    if (v == V_CPU) {
        if (op == OP_INSERT) cpu_insert(b->cpu_slots, b->cpu_counts, b->m, b->w.keys, n);
        else cpu_lookup(b->cpu_slots, b->m, op == OP_ABSENT ? b->w.absent : b->w.keys, n, b->h_out);
        return;
    }
    const table *t = &b->tables[v];
    if (op == OP_GATHER)
        gather<<<b->gather_blocks, THREADS, 0, L->stream>>>((const unsigned long long *)t->d_mem,
                                                           (unsigned)(t->region_bytes / 8), b->gather_accesses,
                                                           0x9e3779b9u * (unsigned)v, b->d_sink);
    else launch_own(b, v, op, op == OP_ABSENT ? b->d_absent : b->d_keys, (n + THREADS - 1) / THREADS, L->stream);
    CUDA_CHECK_LAUNCH("a hash table's kernel");
}

/* Check variant v's table, copied back (its whole allocation); when it passes and count is set, count its sectors. */
static int verify_table(gl_lab *L, bench *b, int v, gl_row *row, const char *when, int count)
{
    table *t = &b->tables[v];
    char *h = (char *)gl_xmalloc(t->bytes);
    CUDA_CHECK(cudaMemcpy(h, t->d_mem, t->bytes, cudaMemcpyDeviceToHost));
    int ok = check_own(b, v, h, &L->rep, row, when, count ? t->sectors : NULL);
    free(h);
    return ok;
}

/* The lab's check of variant v after its check run: the structure an insert built, or a lookup's results. */
static int check_variant(gl_lab *L, int v, gl_row *row, void *ctx)
{
    bench *b = (bench *)ctx;
    if (L->config == OP_INSERT)
        return v == V_CPU ? check_slots(&L->rep, row, &b->w, b->cpu_slots, b->cpu_counts, b->m, NULL)
                          : verify_table(L, b, v, row, "", 0);
    if (v != V_CPU) CUDA_CHECK(cudaMemcpy(b->h_out, b->d_out, sizeof(unsigned) * b->w.n, cudaMemcpyDeviceToHost));
    return check_lookups(&L->rep, row, &b->w, L->spec->variants[v].name, L->config == OP_ABSENT,
                         v != V_CPU && b->chained, b->h_out, b->h_ref);
}

/* Declare the work of variant v's rows: 32 bytes per counted sector (none before they are counted) and what each
 * op streams (keys in, results or pool entries out); GB/s is mostly random traffic. */
static void declare_work(gl_lab *L, const bench *b, int v)
{
    for (int op = 0; op < N_OPS; op++) {
        double s = b->tables[v].sectors[op], streamed = op == OP_INSERT ? (b->chained ? 20.0 : 4.0) : 8.0;
        gl_row_work(gl_lab_row(L, op, v), "time", ((isnan(s) ? 0 : (double)SECTOR * s) + streamed) * b->w.n, b->w.n);
    }
}

/* Mops/s; on a GPU table's rows, the ratio to the CPU and the sector rate against its gather's: % of the limit. */
static void add_values(gl_lab *L, const bench *b)
{
    for (int v = 0; v < L->spec->n_variants; v++) {
        gl_row *gather_row = gl_lab_row(L, OP_GATHER, v);
        double limit = b->gather_accesses / gl_lab_median(L, OP_GATHER, v) / 1e3; /* Gsectors/s */
        if (v != V_CPU && !gather_row) continue;
        if (gather_row) gl_row_number(gather_row, "sector_rate", "Gsectors/s", 2, 0, limit);
        for (int op = 0; op < N_OPS; op++) {
            gl_row *row = gl_lab_row(L, op, v);
            double mops = b->w.n / gl_lab_median(L, op, v), cpu = b->w.n / gl_lab_median(L, op, V_CPU);
            double sectors = b->tables[v].sectors[op], rate = mops * sectors / 1e3;
            if (row) gl_row_number(row, "mops", "Mops/s", 1, 0, mops);
            if (v == V_CPU) continue;
            if (!isnan(cpu)) gl_row_number(row, "vs_cpu", "x", 1, 0, mops / cpu);
            gl_row_number(row, "sectors_per_op", "", 2, 0, sectors);
            gl_row_number(row, "sector_rate", "Gsectors/s", 2, 0, rate);
            gl_row_number(row, "of_limit", "%", 1, 0, 100 * rate / limit);
        }
    }
}

/* The experiment exp with its variants (V_CPU, then its GPU tables, chained or not): the keys, the tables; each op a
 * configuration, every variant checked on it; the gathers; the timing; each table of the last timed insert verified
 * again and its sectors counted; the values, and judge's claims (NULL: none). The exit code. */
static int hash_main(const gl_experiment *exp, const gl_lab_variant *variants, int nv, int chained,
                     void (*judge)(gl_lab *L, const bench *b), int argc, char **argv)
{
    static bench bench_;
    bench *b = &bench_;
    b->chained = chained, b->keys = 1ULL << 24, b->load = 0.5;
    gl_option opts[] = {
        {"keys", GL_OPT_U64, &b->keys, 1, MAX_KEYS, NULL, "1048583",
         "keys to insert, and lookups of each kind (1..2^26)", 0},
        {"load", GL_OPT_DOUBLE, &b->load, 0.5, 0.9, NULL, NULL,
         "load factor: keys per slot (open addressing) or per bucket (chained)", 0},
        {"dups", GL_OPT_U64, &b->dups, 0, MAX_KEYS, NULL, NULL,
         "draw the keys from this many keys (duplicate-heavy); 0: every key distinct", 0},
    };
    gl_lab_spec spec = gl_lab_spec_of(exp, variants, nv, opts, GL_ARRAY_LEN(opts), NULL, 0, run_variant, b);
    spec.table = exp->name, spec.axis = "op"; /* one table of rows; each op a configuration */
    spec.before_run = before_run, spec.check = check_variant;
    spec.time_precision = 1, spec.slow_run_ms = SLOW_RUN_MS, spec.no_spans = 1;
    gl_lab L;
    gl_lab_open(&L, &spec, argc, argv);
    workload *w = &b->w;
    make_workload(w, (unsigned)b->keys, (unsigned)b->dups, L.common.seed);
    unsigned m = (unsigned)ceil((double)w->n / b->load);
    b->m = m = m > w->n ? m : w->n + 1; /* an empty slot always remains: every probe ends */
    /* A kernel past this is hung: generous for the slowest legitimate work, a lock held for each warp's group of
     * one key in turn (a few us each) or a lookup walking every insert of one key, one dependent load at a time. */
    L.timeout_s = 60 + 1e-6 * w->n + 5e-6 * w->max_mult;

    /* memory: everything, checked against what is free before anything is allocated */
    size_t keys_bytes = sizeof(unsigned) * w->n;
    b->gather_accesses = w->n > (1u << 22) ? w->n : 1u << 22;
    b->gather_blocks = gl_lab_grid(&L, (const void *)gather, THREADS, b->gather_accesses);
    gl_lab_need(&L, 3.0 * keys_bytes + sizeof(unsigned long long) * b->gather_blocks * THREADS,
                "--keys %u: the keys, the absent keys, the results, the gather's sums", w->n);
    for (int v = V_CPU + 1; v < nv; v++) {
        table *t = &b->tables[v];
        layout_own(t, v, m, w->n);
        t->bytes = t->region_bytes + round_up(t->zero_bytes);
        for (int op = 0; op < N_OPS; op++) t->sectors[op] = NAN;
        if (L.chosen[v]) gl_lab_need(&L, (double)t->bytes, "%s", variants[v].name);
    }
    gl_lab_budget(&L);
    for (int v = V_CPU + 1; v < nv; v++)
        if (L.chosen[v]) b->tables[v].d_mem = (char *)gl_lab_malloc(&L, b->tables[v].bytes);
    b->d_keys = (unsigned *)gl_lab_malloc(&L, 3 * keys_bytes), b->d_absent = b->d_keys + w->n;
    b->d_out = b->d_absent + w->n;
    CUDA_CHECK(cudaMemcpy(b->d_keys, w->keys, 2 * keys_bytes, cudaMemcpyHostToDevice)); /* w->absent follows */
    b->d_sink = (unsigned long long *)gl_lab_malloc(&L, sizeof(unsigned long long) * b->gather_blocks * THREADS);
    b->h_out = (unsigned *)gl_xmalloc(2 * keys_bytes), b->h_ref = b->h_out + w->n;
    b->cpu_slots = (slot *)gl_xmalloc(sizeof(slot) * m), b->cpu_counts = (unsigned *)gl_xmalloc(sizeof(unsigned) * m);
    printf("%u inserts of %u distinct keys (%s, at most %u of one key); %u slots or buckets (load %.2f)\n", w->n,
           w->distinct, b->dups ? "duplicate-heavy" : "all distinct", w->max_mult, m, b->load);

    /* the configurations: the inserts, checked by walking each table, then the lookups on those tables */
    int valid = 1, any = 0, gpu_only[MAX_VARIANTS] = {0, 1, 1};
    gl_lab_plan(&L, N_OPS, 0);
    for (int op = 0; op < N_OPS; op++) {
        gl_lab_add_config(&L, 0, "%s", op_names[op]); /* its index is op */
        gl_lab_param(&L, "op", "%s", op_names[op]);
        gl_lab_param_num(&L, "keys", w->n);
        for (int v = 0; v < nv; v++) {
            gl_row *row = gl_lab_row(&L, op, v);
            if (!row) continue;
            gl_row_param_num(row, "load", "", 2, b->load);
            if (b->dups) gl_row_param_num(row, "dups", "", 0, (double)b->dups);
            else gl_row_param(row, "dups", "distinct");
            gl_row_param_num(row, "size", "MB", -1, (v ? b->tables[v].region_bytes : sizeof(slot) * (size_t)m) / 1e6);
            if (v == V_CPU) gl_row_work(row, "time", 0, w->n);
        }
        valid &= gl_lab_check(&L, "%s", op_names[op]); /* check_variant writes each check's text */
    }
    for (int v = V_CPU + 1; v < nv; v++)
        if (L.chosen[v]) declare_work(&L, b, v), any = 1; /* the sectors are counted after the timing */
    if (valid && any) { /* the random-access limit, over each table's own memory */
        gl_lab_add_config_in(&L, "random-gather", gpu_only, 0, "gather");
        for (int v = V_CPU + 1; v < nv; v++) {
            gl_row *row = gl_lab_row(&L, OP_GATHER, v);
            if (row) gl_row_param_num(row, "size", "MB", -1, b->tables[v].region_bytes / 1e6);
        }
        gl_lab_param_num(&L, "accesses", b->gather_accesses);
        gl_lab_work(&L, (double)SECTOR * b->gather_accesses, b->gather_accesses);
    }

    /* time; the lookups read the table of the last timed insert: verify it again, count its sectors, judge */
    if (gl_lab_time(&L)) {
        for (int v = V_CPU + 1; v < nv; v++) {
            if (!L.chosen[v]) continue;
            verify_table(&L, b, v, gl_lab_row(&L, OP_INSERT, v), " (the last timed insert)", 1);
            declare_work(&L, b, v);
        }
        add_values(&L, b);
        if (judge) judge(&L, b);
    }
    free(b->cpu_slots), free(b->cpu_counts), free(b->h_out), free(w->uidx);
    return gl_lab_close(&L);
}

#endif
