/* import.c - an Nsight Systems SQLite export, read into the replay's calls and model program (import.h). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_common.h"
#include "gl_gpu_limits.h"
#include "gl_stats.h"
#include "fit.h"
#include "import.h"
#include "sqlite_api.h"

enum { RP_BAD = 2 }; /* a trace the replay cannot read: a usage error, as a bad option is */
enum { OUT_OF_RANGE = -2 }; /* a call outside --range: its work is left out, not counted as dropped */
static const double DRIVER_BORN_NS = 10e6;  /* the driver's thread begins this soon after the first host function */
static const double DRIVER_BEFORE_NS = 10e6; /* its runs read from this long before a --range */

/* What a query is for: its statement, and the trace it fills. */
typedef struct reader {
    sqlite3 *db;
    const char *path;
    char *err;
    int errlen;
} reader;

static int fail(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, (size_t)r->errlen, fmt, ap);
    va_end(ap);
    return RP_BAD;
}

/* Prepare sql; on failure say why in err, naming the table when SQLite says it is missing (-1). A file that is
 * not SQLite, or a truncated one, fails here first. */
static int prepare(reader *r, const char *sql, sqlite3_stmt **st)
{
    int rc = sqlite3_prepare_v2(r->db, sql, -1, st, NULL);
    if (rc == SQLITE_OK) return 0;
    const char *msg = sqlite3_errmsg(r->db);
    if (rc == SQLITE_NOTADB) return fail(r, "%s is not an SQLite file (nsys export --type sqlite makes one)", r->path);
    if (rc == SQLITE_CORRUPT) return fail(r, "%s is damaged or truncated: %s", r->path, msg);
    return fail(r, "%s: %s (in: %s)", r->path, msg, sql);
}

/* Whether the export has a table called name. */
static int has_table(reader *r, const char *name)
{
    sqlite3_stmt *st;
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='%s'", name);
    if (prepare(r, sql, &st)) return -1;
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* Whether table has a column called name (an export of another nsys version may lack it). */
static int has_column(reader *r, const char *table, const char *name)
{
    sqlite3_stmt *st;
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name='%s'", table, name);
    if (prepare(r, sql, &st)) return 0;
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* Run sql, calling row(st, ctx) for each row; a step that fails (a truncated file found late) is said in err. */
static int each_row(reader *r, const char *sql, void (*row)(sqlite3_stmt *, void *), void *ctx)
{
    sqlite3_stmt *st;
    if (prepare(r, sql, &st)) return RP_BAD;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st, ctx);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return fail(r, "%s is damaged or truncated: %s", r->path, sqlite3_errmsg(r->db));
    return 0;
}

static double col_num(sqlite3_stmt *st, int c)
{
    return sqlite3_column_type(st, c) == SQLITE_NULL ? NAN : sqlite3_column_double(st, c);
}
static long long col_int(sqlite3_stmt *st, int c, long long dflt)
{
    return sqlite3_column_type(st, c) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, c);
}

/* ---- ids to indices ------------------------------------------------------------------------------------ */

/* A small map from the trace's ids (globalTid, streamId, eventId, correlationId) to dense indices. */
typedef struct idmap {
    long long *key;
    int *val;
    int n, cap;
} idmap;

static int idmap_find(const idmap *m, long long key)
{
    int lo = 0, hi = m->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->key[mid] == key) return m->val[mid];
        if (m->key[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Insert in order (the ids arrive mostly sorted: insertion stays cheap); keeps an existing key's value. */
static void idmap_put(idmap *m, long long key, int val)
{
    if (idmap_find(m, key) >= 0) return;
    gl_grow((void **)&m->key, &m->cap, m->n + 1, sizeof *m->key);
    m->val = (int *)realloc(m->val, sizeof *m->val * (size_t)m->cap);
    if (!m->val) gl_die(GL_EXIT_INTERNAL, "out of memory");
    int i = m->n++;
    while (i > 0 && m->key[i - 1] > key) {
        m->key[i] = m->key[i - 1], m->val[i] = m->val[i - 1];
        i--;
    }
    m->key[i] = key, m->val[i] = val;
}

/* Add one to key's value (a new key gets 1). */
static void idmap_inc(idmap *m, long long key)
{
    int lo = 0, hi = m->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m->key[mid] == key) {
            m->val[mid]++;
            return;
        }
        if (m->key[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    idmap_put(m, key, 1);
}

static void idmap_free(idmap *m) { free(m->key), free(m->val); }

/* ---- the rows ------------------------------------------------------------------------------------------ */

typedef struct timed_call {
    double t;
    int wait, call; /* wait: 0 for a record, which goes first at the same time */
} timed_call;

typedef struct loading {
    rp_trace *t;
    int cap_calls;
    idmap corr;    /* correlationId -> call index */
    idmap threads; /* globalTid -> thread */
    idmap streams; /* streamId -> model stream */
    idmap events;  /* eventId -> model event */
    idmap names;   /* StringIds id -> name index */
    long long legacy_id;
    int processes, devices;
    long long pid, dev;
    const char *range; /* the NVTX range's name, or NULL: every call */
    int cap_nodes;     /* room in t->nodes */
    long long whole;   /* CUPTI_ACTIVITY_KIND_GRAPH_TRACE rows: graph launches traced whole */
    timed_call *out_launches; /* under --range, the graph launches called outside it: their starts, in order */
    int n_out_launches, cap_out_launches;
} loading;

static int name_index(loading *L, long long string_id, const char *text)
{
    int i = idmap_find(&L->names, string_id);
    if (i >= 0) return i;
    rp_trace *t = L->t;
    int cap = t->n_names;
    gl_grow((void **)&t->names, &cap, t->n_names + 1, sizeof *t->names);
    t->name_counts = (int *)realloc(t->name_counts, sizeof(int) * (size_t)cap);
    t->name_kept = (int *)realloc(t->name_kept, sizeof(int) * (size_t)cap);
    if (!t->name_counts || !t->name_kept) gl_die(GL_EXIT_INTERNAL, "out of memory");
    size_t n = strcspn(text, " ");
    const char *v = strstr(text, "_v");
    if (v && v[2] >= '0' && v[2] <= '9') n = (size_t)(v - text); /* cudaLaunchKernel_v7000: the version goes */
    t->names[t->n_names] = (char *)gl_xmalloc(n + 1);
    memcpy(t->names[t->n_names], text, n), t->names[t->n_names][n] = 0;
    t->name_counts[t->n_names] = 0, t->name_kept[t->n_names] = 0;
    idmap_put(&L->names, string_id, t->n_names);
    return t->n_names++;
}

static void runtime_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    rp_trace *t = L->t;
    if (L->range && !(col_num(st, 0) >= t->range_start_ns && col_num(st, 0) <= t->range_end_ns)) {
        idmap_put(&L->corr, sqlite3_column_int64(st, 3), OUT_OF_RANGE); /* its GPU work is not the range's */
        const unsigned char *name = sqlite3_column_text(st, 5); /* nor its conditional bodies' (graphs_finish) */
        if (name && strstr((const char *)name, "GraphLaunch")) {
            gl_grow((void **)&L->out_launches, &L->cap_out_launches, L->n_out_launches + 1, sizeof *L->out_launches);
            L->out_launches[L->n_out_launches++] = (timed_call){col_num(st, 0), 0, -1};
        }
        return;
    }
    long long tid = sqlite3_column_int64(st, 2);
    if (idmap_find(&L->threads, tid) < 0) idmap_put(&L->threads, tid, t->n_threads++);
    gl_grow((void **)&t->calls, &L->cap_calls, t->n_calls + 1, sizeof *t->calls);
    rp_call *c = &t->calls[t->n_calls];
    memset(c, 0, sizeof *c);
    c->kind = RP_HOST, c->thread = idmap_find(&L->threads, tid), c->stream = c->event = -1;
    c->start_ns = col_num(st, 0), c->end_ns = col_num(st, 1);
    c->gpu_start_ns = c->gpu_end_ns = NAN;
    const unsigned char *name = sqlite3_column_text(st, 5);
    c->name = name_index(L, sqlite3_column_int64(st, 4), name ? (const char *)name : "?");
    c->ret = (int)col_int(st, 6, 0);
    c->unfinished = c->ret == 600; /* cudaErrorNotReady */
    idmap_put(&L->corr, sqlite3_column_int64(st, 3), t->n_calls);
    t->n_calls++;
}

/* The model stream of a trace streamId (the legacy stream's is 0); -1 for one the stream table did not list. */
static int stream_of(loading *L, long long id)
{
    if (id == L->legacy_id) return GL_SCHED_LEGACY;
    return idmap_find(&L->streams, id);
}

static void stream_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    long long id = sqlite3_column_int64(st, 0), flag = col_int(st, 2, 1);
    int prio = (int)(int32_t)(uint32_t)col_int(st, 1, 0); /* -5 is stored as 4294967291 */
    if (flag == 3 && L->legacy_id < 0) L->legacy_id = id; /* the legacy stream, where the context table is missing */
    if (id == L->legacy_id || flag == 3) return;
    rp_trace *t = L->t;
    int cap = t->n_streams;
    gl_grow((void **)&t->streams, &cap, t->n_streams + 1, sizeof *t->streams);
    t->streams[t->n_streams].kind = flag == 2 ? GL_SCHED_STREAM_NONBLOCKING : GL_SCHED_STREAM_BLOCKING;
    t->streams[t->n_streams].priority = prio;
    t->streams[t->n_streams].thread = -1;
    idmap_put(&L->streams, id, t->n_streams++);
}

/* A row's times, counted into the recorded span. */
static void work_call_span(loading *L, sqlite3_stmt *st)
{
    rp_trace *t = L->t;
    t->gpu_first_ns = fmin(t->gpu_first_ns, col_num(st, 0)), t->gpu_last_ns = fmax(t->gpu_last_ns, col_num(st, 1));
}

/* The GPU work of a call: KERNEL, MEMCPY and MEMSET rows (start, end, streamId, correlationId, globalPid, deviceId,
 * then their own columns). */
static rp_call *work_call(loading *L, sqlite3_stmt *st)
{
    int i = idmap_find(&L->corr, sqlite3_column_int64(st, 3));
    if (i == OUT_OF_RANGE) return NULL;
    work_call_span(L, st);
    rp_trace *t = L->t;
    double s = col_num(st, 0), e = col_num(st, 1);
    int stream = stream_of(L, sqlite3_column_int64(st, 2));
    if (i < 0 || stream < 0 || !(e >= s)) { /* no call of the process, a stream the trace did not list, no time */
        t->dropped++;
        return NULL;
    }
    rp_call *c = &t->calls[i];
    if (c->kind == RP_GRAPH) { /* a graph launch's node in an export whose table has no graphNodeId: left out */
        t->dropped++;
        return NULL;
    }
    c->gpu_start_ns = s, c->gpu_end_ns = e, c->stream = stream;
    return c;
}

/* Blocks of a kernel's shape that fit on one SM: warps, registers (allocated 256 a warp), shared memory (and the
 * 1 KiB each block reserves on Hopper) and the per-SM block limit, as the occupancy calculator counts them. */
static int blocks_per_sm(const int *gpu, int threads, int regs, int shmem)
{
    int warps = (threads + 31) / 32, by_warps = gpu[1] / (warps > 0 ? warps : 1), n = gpu[0];
    if (by_warps < n) n = by_warps;
    int regs_block = ((regs * 32 + 255) / 256) * 256 * warps;
    if (regs_block > 0 && gpu[2] / regs_block < n) n = gpu[2] / regs_block;
    int smem_block = shmem + 1024;
    if (gpu[3] > 0 && gpu[3] / smem_block < n) n = gpu[3] / smem_block;
    return n > 0 ? n : 1;
}

typedef struct kernel_ctx {
    loading *L;
    int gpu[4]; /* max blocks, warps, registers and shared memory per SM */
} kernel_ctx;

/* A stream the trace does not list, that a conditional node's body ran in: one of the driver's, taken as a
 * non-blocking stream of the default priority. */
static int driver_stream(loading *L, long long id)
{
    rp_trace *t = L->t;
    int cap = t->n_streams;
    gl_grow((void **)&t->streams, &cap, t->n_streams + 1, sizeof *t->streams);
    t->streams[t->n_streams] = (gl_sched_stream){GL_SCHED_STREAM_NONBLOCKING, 0, -1};
    idmap_put(&L->streams, id, t->n_streams);
    return t->n_streams++;
}

/* A row whose column col holds a graphNodeId: a node of its call's graph launch, kept in t->nodes (its call, by
 * index before the calls are sorted, is marked RP_GRAPH); NULL for a row that is no node, or one left out. A node
 * of correlationId 0 ran in a conditional node's body (nsys 2025.3 on NVIDIA's graphConditionalNodes, H200: the
 * bodies' kernels, in streams of the driver's that the trace does not list, between their launch's other nodes,
 * their graphNodeId's upper half their launch's graph): its call is RP_BODY_CALL until graphs_finish finds its
 * launch. */
static rp_node *graph_node(loading *L, sqlite3_stmt *st, int col)
{
    rp_trace *t = L->t;
    long long corr = sqlite3_column_int64(st, 3);
    int i = idmap_find(&L->corr, corr);
    if (col < 0) { /* the table has no graphNodeId: a node is a row whose call is a graph launch */
        const char *n = i >= 0 ? t->names[t->calls[i].name] : "";
        if (!strstr(n, "GraphLaunch")) return NULL;
    } else if (sqlite3_column_type(st, col) == SQLITE_NULL) {
        return NULL;
    }
    if (i == OUT_OF_RANGE) return NULL;
    int body = i < 0 && corr == 0 && col >= 0; /* its span once its launch is found (graphs_finish) */
    if (!body) work_call_span(L, st);
    int stream = stream_of(L, sqlite3_column_int64(st, 2));
    if (body && stream < 0) stream = driver_stream(L, sqlite3_column_int64(st, 2));
    if ((i < 0 && !body) || stream < 0 || !(col_num(st, 1) >= col_num(st, 0))) {
        t->dropped++;
        return NULL;
    }
    gl_grow((void **)&t->nodes, &L->cap_nodes, t->n_nodes + 1, sizeof *t->nodes);
    rp_node *n = &t->nodes[t->n_nodes++];
    memset(n, 0, sizeof *n);
    n->call = body ? RP_BODY_CALL : i, n->stream = stream;
    n->gpu_start_ns = col_num(st, 0), n->gpu_end_ns = col_num(st, 1);
    n->graph = col < 0 ? -1 : (long long)((unsigned long long)sqlite3_column_int64(st, col) >> 32);
    n->node = col < 0 ? 0 : (unsigned)((unsigned long long)sqlite3_column_int64(st, col) & 0xffffffffu);
    n->body = body;
    if (body) return n;
    t->calls[i].kind = RP_GRAPH;
    t->calls[i].node_first = i; /* a key that outlives the sort (graphs_finish) */
    return n;
}

static void kernel_row(sqlite3_stmt *st, void *ctx)
{
    kernel_ctx *k = (kernel_ctx *)ctx;
    rp_node *n = NULL;
    rp_call *c = NULL;
    if (sqlite3_column_type(st, 15) != SQLITE_NULL) {
        if (!(n = graph_node(k->L, st, 15))) return;
        n->kind = RP_LAUNCH;
    } else if (!(c = work_call(k->L, st))) {
        return;
    }
    long long blocks = col_int(st, 6, 1) * col_int(st, 7, 1) * col_int(st, 8, 1);
    if (blocks < 1 || blocks > RP_MAX_BLOCKS) { /* the model hands out blocks one by one: its time grows with them */
        k->L->t->too_big = blocks;
        return;
    }
    int threads = (int)(col_int(st, 9, 1) * col_int(st, 10, 1) * col_int(st, 11, 1));
    int per_sm = blocks_per_sm(k->gpu, threads, (int)col_int(st, 12, 0), (int)(col_int(st, 13, 0) + col_int(st, 14, 0)));
    long long name = col_int(st, 16, -1); /* shortName, where the export has it */
    int kname = name >= 0 && name < INT_MAX ? (int)name + 1 : 0;
    if (n) n->blocks = (int)blocks, n->threads = threads, n->blocks_per_sm = per_sm, n->kname = kname;
    else c->kind = RP_LAUNCH, c->blocks = (int)blocks, c->threads = threads, c->blocks_per_sm = per_sm, c->kname = kname;
}

static void memcpy_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    long long kind = col_int(st, 7, 0);
    if (kind >= 11 && kind <= 13 && sqlite3_column_int64(st, 3) == 0) { /* ENUM_CUDA_MEMCPY_OPER: unified memory's */
        /* The driver's page migrations (correlationId 0, no call issued them; NVIDIA's UnifiedMemoryStreams: 2984
         * of them, H200): the kernels that faulted waited for them. One with a call (a prefetch's, not seen here)
         * is that call's copy, as any other. Counted apart, not left out; they are the
         * GPU's copies, in the recorded span as the others (taken out, that sample's replay at C=8 went from 1.5%
         * to 4.2% off at the median of three recordings, the kernels' times holding the faults either way). */
        rp_trace *t = L->t;
        double s = col_num(st, 0);
        if (L->range && !(s >= t->range_start_ns && s < t->range_end_ns)) return;
        work_call_span(L, st);
        t->um_migrations++, t->um_bytes += col_num(st, 6);
        return;
    }
    rp_node *n = graph_node(L, st, sqlite3_column_count(st) > 10 ? 10 : -1);
    rp_call *c = n ? NULL : work_call(L, st);
    if (!n && !c) return;
    long long src = col_int(st, 8, 1), dst = col_int(st, 9, 1);
    int dir = kind == 1 ? GL_SCHED_H2D : kind == 2 ? GL_SCHED_D2H : GL_SCHED_D2D;
    int pageable = (kind == 1 && src == 0) || (kind == 2 && dst == 0); /* ENUM_CUDA_MEM_KIND 0: pageable */
    if (n) n->kind = RP_COPY, n->bytes = col_num(st, 6), n->dir = dir, n->pageable = pageable;
    else c->kind = RP_COPY, c->bytes = col_num(st, 6), c->dir = dir, c->pageable = pageable;
}

static void memset_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    rp_node *n = graph_node(L, st, sqlite3_column_count(st) > 7 ? 7 : -1);
    rp_call *c = n ? NULL : work_call(L, st);
    if (n) n->kind = RP_COPY, n->dir = GL_SCHED_MEMSET, n->bytes = col_num(st, 6);
    else if (c) c->kind = RP_COPY, c->dir = GL_SCHED_MEMSET, c->bytes = col_num(st, 6);
}

static int event_of(loading *L, long long id)
{
    if (idmap_find(&L->events, id) < 0) idmap_put(&L->events, id, L->t->n_events++);
    return idmap_find(&L->events, id);
}

static void record_row(sqlite3_stmt *st, void *ctx) /* CUDA_EVENT: correlationId, streamId, eventId */
{
    loading *L = (loading *)ctx;
    L->t->event_trace = 1; /* the rows are there: CUPTI traced the records, which changes what they hold */
    int i = idmap_find(&L->corr, sqlite3_column_int64(st, 0));
    if (i < 0) return; /* no call of the process, or one outside --range */
    rp_call *c = &L->t->calls[i];
    if (c->kind == RP_GRAPH) return; /* an event record node of a graph launch: the launch stays a graph */
    c->stream = stream_of(L, sqlite3_column_int64(st, 1));
    if (c->stream < 0) return;
    c->kind = RP_RECORD, c->event = event_of(L, sqlite3_column_int64(st, 2));
}

static void sync_row(sqlite3_stmt *st, void *ctx) /* SYNCHRONIZATION: correlationId, streamId, eventId, syncType */
{
    loading *L = (loading *)ctx;
    int i = idmap_find(&L->corr, sqlite3_column_int64(st, 0));
    if (i < 0) return;
    rp_call *c = &L->t->calls[i];
    if (c->kind == RP_GRAPH) return; /* a graph's event wait node */
    /* The call's name says what it was: nsys 2025.3 writes a cudaStreamSynchronize with syncType 2 (a stream
     * wait) and no event. An id of all ones (-1 stored unsigned) is no id. */
    const char *n = L->t->names[c->name];
    long long stream = col_int(st, 1, -1), event = col_int(st, 2, -1);
    int has_event = event >= 0 && event != 0xFFFFFFFFLL, has_stream = stream >= 0 && stream != 0xFFFFFFFFLL;
    if (!strcmp(n, "cudaStreamSynchronize") && has_stream) {
        c->stream = stream_of(L, stream);
        if (c->stream >= 0) c->kind = RP_SYNC_STREAM;
    } else if (!strcmp(n, "cudaEventSynchronize") && has_event) {
        c->kind = RP_SYNC_EVENT, c->event = event_of(L, event);
    } else if (!strcmp(n, "cudaEventQuery") && has_event) { /* a poll: polls() makes a loop of them one wait */
        c->event = event_of(L, event);
    } else if (!strncmp(n, "cudaStreamWaitEvent", 19) && has_event && has_stream) {
        c->stream = stream_of(L, stream);
        if (c->stream >= 0) c->kind = RP_WAIT, c->event = event_of(L, event);
    }
}

static void gpu_row(sqlite3_stmt *st, void *ctx)
{
    kernel_ctx *k = (kernel_ctx *)ctx;
    rp_trace *t = k->L->t;
    t->sms = (int)col_int(st, 0, 0), t->major = (int)col_int(st, 1, 0), t->minor = (int)col_int(st, 2, 0);
    k->gpu[0] = (int)col_int(st, 3, 32), k->gpu[1] = (int)col_int(st, 4, 64);
    k->gpu[2] = (int)col_int(st, 5, 65536), k->gpu[3] = (int)col_int(st, 6, 0);
    const unsigned char *name = sqlite3_column_text(st, 7);
    snprintf(t->gpu, sizeof t->gpu, "%s", name ? (const char *)name : "?");
}

static void legacy_row(sqlite3_stmt *st, void *ctx) { ((loading *)ctx)->legacy_id = sqlite3_column_int64(st, 0); }

/* META_DATA_CAPTURE's environment lines: NAME="value". */
static void env_row(sqlite3_stmt *st, void *ctx)
{
    rp_trace *t = ((loading *)ctx)->t;
    const char *v = (const char *)sqlite3_column_text(st, 0);
    if (!v) return;
    if (!strncmp(v, "CUDA_DEVICE_MAX_CONNECTIONS=\"", 29)) t->recorded_connections = atoi(v + 29);
    if (t->recorded_connections > 32) t->recorded_connections = 32; /* the driver takes 32 at most */
    if (t->recorded_connections < 0) t->recorded_connections = 0;
    if (!strncmp(v, "CUDA_MODULE_LOADING=\"", 21)) t->lazy = strncmp(v + 21, "EAGER", 5) != 0;
}

static void schema_row(sqlite3_stmt *st, void *ctx)
{
    const char *v = (const char *)sqlite3_column_text(st, 0);
    snprintf(((loading *)ctx)->t->schema, sizeof ((loading *)ctx)->t->schema, "%s", v ? v : "?");
}

static void pid_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    L->processes = (int)sqlite3_column_int64(st, 0), L->devices = (int)sqlite3_column_int64(st, 1);
    L->pid = col_int(st, 2, 0);
}

/* How many processes and devices have GPU work, and the first process, before any call is read. */
static int count_processes(reader *r, loading *L)
{
    static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                         "CUPTI_ACTIVITY_KIND_MEMSET"};
    char sql[600] = "SELECT COUNT(DISTINCT globalPid), COUNT(DISTINCT deviceId), MIN(globalPid) FROM "
                    "(SELECT 0 AS globalPid, 0 AS deviceId WHERE 0";
    for (int i = 0; i < 3; i++)
        if (has_table(r, tables[i]) == 1)
            snprintf(sql + strlen(sql), sizeof sql - strlen(sql), " UNION ALL SELECT globalPid, deviceId FROM %s",
                     tables[i]);
    strcat(sql, ")");
    return each_row(r, sql, pid_row, L);
}

/* NVTX_EVENTS rows (start, end, name): the first range named L->range, and how many are. */
static void range_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    rp_trace *t = L->t;
    const char *name = (const char *)sqlite3_column_text(st, 2);
    size_t n = strlen(L->range);
    if (!name || strncmp(name, L->range, n) != 0 || (name[n] != 0 && name[n] != ' ')) return;
    if (t->ranges_matched++ == 0) {
        t->range_start_ns = col_num(st, 0), t->range_end_ns = col_num(st, 1);
        snprintf(t->range, sizeof t->range, "%s", name);
    }
}

/* A host function's stream is not in the trace (CUPTI records its call, and no activity with its stream or its
 * run: checked on nsys 2025.3): it is taken to be the stream of its thread's previous call that had one, as a
 * program that adds a callback after its stream's work does. (Choosing among the thread's latest streams the one
 * whose next work was held longest put the operations' starts further off, 9.3% of the span at p95 against 6.6%,
 * on event-programs' random programs, whose threads issue several streams each.) Its own time is fitted later
 * (rp_fit_hostfns). */
static void host_functions(rp_trace *t)
{
    for (int i = 0; i < t->n_calls; i++) {
        rp_call *c = &t->calls[i];
        const char *n = t->names[c->name];
        if (c->captured || (strcmp(n, "cudaLaunchHostFunc") && strcmp(n, "cudaStreamAddCallback") &&
                             strcmp(n, "cuLaunchHostFunc") && strcmp(n, "cuStreamAddCallback")))
            continue;
        t->hostfns++;
        for (int j = i - 1; j >= 0 && t->calls[j].thread == c->thread && c->n_cand < 4; j--) {
            int st = t->calls[j].stream, seen = 0;
            if (st < 0 || t->calls[j].kind == RP_SYNC_STREAM || t->calls[j].kind == RP_HOSTFN) continue;
            for (int k = 0; k < c->n_cand; k++) seen |= c->cand[k] == st;
            if (!seen) c->cand[c->n_cand++] = st;
        }
        if (c->n_cand > 0) c->kind = RP_HOSTFN, c->stream = c->cand[0];
        else t->hostfns_lost++;
    }
}

/* The driver's host-function thread: a thread of the process that makes no CUDA call and that began (its first
 * scheduling row) at or after the process's first host function call, the first such; the driver starts it then
 * (every recording of validate-replay: 0.2 ms after the first cudaLaunchHostFunc or cudaStreamAddCallback). */
typedef struct driver_pick {
    long long tid;
    double first_fn;
} driver_pick;

static void first_fn_row(sqlite3_stmt *st, void *ctx) { ((driver_pick *)ctx)->first_fn = col_num(st, 0); }
static void driver_tid_row(sqlite3_stmt *st, void *ctx)
{
    driver_pick *d = (driver_pick *)ctx;
    if (d->tid == 0 && col_num(st, 1) - d->first_fn < DRIVER_BORN_NS) d->tid = sqlite3_column_int64(st, 0);
}
static void driver_run_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    rp_trace *t = L->t;
    double at = col_num(st, 0);
    int on = (int)col_int(st, 1, 0);
    if (on && (t->n_fn_runs % 2) == 0) { /* on: a run begins */
        int cap = t->n_fn_runs;
        gl_grow((void **)&t->fn_runs, &cap, t->n_fn_runs + 2, sizeof *t->fn_runs);
        t->fn_runs[t->n_fn_runs++] = at;
    } else if (!on && (t->n_fn_runs % 2) == 1) {
        t->fn_runs[t->n_fn_runs++] = at;
    }
}

/* Read when the driver's host-function thread ran (rp_trace.fn_runs); a trace without scheduling rows, or without
 * such a thread, gives none and no error. */
static int driver_runs(reader *r, loading *L)
{
    rp_trace *t = L->t;
    if (has_table(r, "SCHED_EVENTS") != 1 || has_column(r, "SCHED_EVENTS", "isSchedIn") != 1) return 0;
    driver_pick d = {0, NAN};
    char sql[900];
    snprintf(sql, sizeof sql, "SELECT MIN(r.start) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
             "WHERE (r.globalTid / 16777216) = %lld AND (s.value LIKE 'cudaLaunchHostFunc%%' OR s.value LIKE "
             "'cudaStreamAddCallback%%' OR s.value LIKE 'cuLaunchHostFunc%%' OR s.value LIKE 'cuStreamAddCallback%%')",
             L->pid / 16777216);
    int rc = each_row(r, sql, first_fn_row, &d);
    if (rc || isnan(d.first_fn)) return rc;
    snprintf(sql, sizeof sql, "SELECT globalTid, MIN(start) AS born FROM SCHED_EVENTS WHERE (globalTid / 16777216) = "
             "%lld AND globalTid NOT IN (SELECT DISTINCT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME) GROUP BY "
             "globalTid HAVING born >= %.0f ORDER BY born", L->pid / 16777216, d.first_fn);
    if ((rc = each_row(r, sql, driver_tid_row, &d)) != 0 || d.tid == 0) return rc;
    double from = L->range ? t->range_start_ns - DRIVER_BEFORE_NS : -INFINITY, to = L->range ? t->range_end_ns : INFINITY;
    snprintf(sql, sizeof sql, "SELECT start, isSchedIn FROM SCHED_EVENTS WHERE globalTid = %lld AND start >= %.0f AND "
             "start <= %.0f ORDER BY start", d.tid, isfinite(from) ? from : -1e30, isfinite(to) ? to : 1e30);
    rc = each_row(r, sql, driver_run_row, L);
    if (t->n_fn_runs % 2) t->n_fn_runs--; /* a run the range's end cut: its end is not known */
    return rc;
}

static int by_time(const void *x, const void *y)
{
    const timed_call *a = (const timed_call *)x, *b = (const timed_call *)y;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return a->wait != b->wait ? a->wait - b->wait : (a->call > b->call) - (a->call < b->call);
}

/* The D2H copies (none captured) by recorded start, with the latest end among each one and those before it. Each
 * pageable one's predecessor in the driver's staging (staging_previous) and how long the engine was busy before a
 * copy began (engine_busy_before) are read from it. */
typedef struct d2h_order {
    int n;
    timed_call *by_start;
    double *end_max;
} d2h_order;

static void d2h_order_build(const rp_trace *t, d2h_order *o)
{
    o->by_start = (timed_call *)gl_xmalloc(sizeof *o->by_start * ((size_t)t->n_calls + 1));
    o->n = 0;
    for (int i = 0; i < t->n_calls; i++) {
        const rp_call *c = &t->calls[i];
        if (c->kind == RP_COPY && c->dir == GL_SCHED_D2H && !c->captured)
            o->by_start[o->n++] = (timed_call){c->gpu_start_ns, 0, i};
    }
    qsort(o->by_start, (size_t)o->n, sizeof *o->by_start, by_time);
    o->end_max = (double *)gl_xmalloc(sizeof(double) * ((size_t)o->n + 1));
    for (int k = 0; k < o->n; k++)
        o->end_max[k] = fmax(k > 0 ? o->end_max[k - 1] : -INFINITY, t->calls[o->by_start[k].call].gpu_end_ns);
}

/* A pageable H2D copy that the host waits for: one over what the driver stages at once. */
static int waited_h2d(const rp_call *c)
{
    return c->kind == RP_COPY && c->dir == GL_SCHED_H2D && c->pageable && !c->captured && c->bytes > RP_STAGED_BYTES;
}

/* Each pageable D2H call's predecessor in the driver's staging, which takes them one at a time (gl_sched.h
 * "Staging"): the pageable D2H whose copy began last before its own (rp_call.staging_prev); and the same for the
 * H2D copies the host waits for. The order is the
 * recording's, not the calls': in event-programs' seed 20261132 at C=8 a thread that returned from a 161 MB copy
 * called again 82 us later and went before two threads that had waited 11 ms for it, one of them before the other
 * that had waited longer. */
static void staging_previous(rp_trace *t, const d2h_order *o)
{
    for (int i = 0; i < t->n_calls; i++) t->calls[i].staging_prev = -1;
    for (int k = 0, prev = -1; k < o->n; k++) {
        int call = o->by_start[k].call;
        if (!t->calls[call].pageable) continue;
        t->calls[call].staging_prev = prev;
        prev = call;
    }
    /* An H2D the host waits for takes the whole H2D staging until its copy ends (gl_sched.h "Staging"), so such
     * copies go one at a time too, in the recorded order (probe-held-chain, session 23: an 8 MiB one in an idle
     * stream, called 300 us into another thread's behind a 3 ms kernel, returned 1.41 and 1.44 ms after that one
     * at C=8, alone and under nsys, medians of 9; a pageable D2H in its place did not wait). The replay had left
     * them unlinked (replay.c, no staging room): validate-replay's random 28 at C=1 ran a 45 MB one beside a 19 MB
     * one that it had followed, +23.1% on one recording, +3.9% linked. */
    timed_call *h = (timed_call *)gl_xmalloc(sizeof *h * ((size_t)t->n_calls + 1));
    int n = 0;
    for (int i = 0; i < t->n_calls; i++)
        if (waited_h2d(&t->calls[i])) h[n++] = (timed_call){t->calls[i].gpu_start_ns, 0, i};
    qsort(h, (size_t)n, sizeof *h, by_time);
    for (int k = 1; k < n; k++) t->calls[h[k].call].staging_prev = h[k - 1].call;
    t->waited_h2d = n;
    free(h);
}

/* How many of v (n, by t) come before t: t below it, or at_too also at it. */
static int timed_before(const timed_call *v, int n, double t, int at_too)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (v[mid].t < t || (at_too && v[mid].t == t)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The latest end of the D2H copies that began before at (-INFINITY: none). */
static double engine_busy_before(const d2h_order *o, double at)
{
    int k = timed_before(o->by_start, o->n, at, 0);
    return k > 0 ? o->end_max[k - 1] : -INFINITY;
}

/* Of the calls in list (by return, ascending), the latest to return inside c, within RP_HELD_RETURN_NS before
 * c's return, from another thread; the first listed of those returning at once (-1: none). */
static int latest_holder(const rp_trace *t, const int *list, int n, const rp_call *c)
{
    int a = 0, b = n, best = -1;
    while (a < b) { /* the first that returned after c did */
        int mid = (a + b) / 2;
        if (t->calls[list[mid]].end_ns > c->end_ns) b = mid;
        else a = mid + 1;
    }
    for (int k = a - 1; k >= 0; k--) {
        const rp_call *h = &t->calls[list[k]];
        if (h->end_ns <= c->start_ns || c->end_ns - h->end_ns > RP_HELD_RETURN_NS ||
            (best >= 0 && h->end_ns < t->calls[best].end_ns))
            break;
        if (h->thread != c->thread) best = list[k];
    }
    return best;
}

/* Each host function's call that another thread's pageable copy call held (rp_call.held_by, counted in
 * t->held_calls, those behind another held call in t->held_chained): a cudaLaunchHostFunc or cudaStreamAddCallback
 * call waits while another thread is inside a pageable copy call that the host waits for, and returns 35-83 us
 * after that call returns (probe-pageable-hostfn, session 18; alone and under nsys, at C=8 and 1). A call over
 * RP_HELD_CALL_NS that returned within RP_HELD_RETURN_NS after such a call returned, inside it, was held by the
 * latest such. The calls so held go one after another: a held call that returned inside a later one, within
 * RP_HELD_RETURN_NS before it, holds that one too (probe-held-chain, session 23: three threads' calls held by one
 * pageable D2H returned in the order called, 32-67 us apart, medians; validate-replay's random 28 at C=1: four
 * threads' calls waited 7.6-11.6 ms behind a 45 MB pageable H2D and returned 65, 656, 785 and 902 us after it, each
 * within 130 us of a pageable copy call's return or of the held call before it). After host_waits, which tells
 * which copy calls the host waited for. */
static void held_calls(rp_trace *t)
{
    timed_call *by_end = (timed_call *)gl_xmalloc(sizeof *by_end * ((size_t)t->n_calls + 1));
    timed_call *copies = (timed_call *)gl_xmalloc(sizeof *copies * ((size_t)t->n_calls + 1));
    int n = 0, m = 0, n_held = 0;
    for (int j = 0; j < t->n_calls; j++) {
        rp_call *c = &t->calls[j];
        c->held_by = -1;
        if (c->kind == RP_COPY && c->pageable && c->waits) copies[n++] = (timed_call){c->end_ns, 0, j};
        if (c->kind == RP_HOSTFN && c->end_ns - c->start_ns >= RP_HELD_CALL_NS)
            by_end[m++] = (timed_call){c->end_ns, 0, j};
    }
    qsort(copies, (size_t)n, sizeof *copies, by_time);
    qsort(by_end, (size_t)m, sizeof *by_end, by_time);
    int *paged = (int *)gl_xmalloc(sizeof(int) * ((size_t)n + 1));
    int *held = (int *)gl_xmalloc(sizeof(int) * ((size_t)m + 1));
    for (int k = 0; k < n; k++) paged[k] = copies[k].call;
    t->held_calls = t->held_chained = 0;
    for (int i = 0; i < m; i++) { /* by return, so that the held calls that returned before it can hold it */
        rp_call *c = &t->calls[by_end[i].call];
        int p = latest_holder(t, paged, n, c), h = latest_holder(t, held, n_held, c);
        c->held_by = h >= 0 && (p < 0 || t->calls[h].end_ns > t->calls[p].end_ns) ? h : p; /* a copy first at once */
        if (c->held_by < 0) continue;
        t->held_calls++;
        t->held_chained += c->held_by == h;
        held[n_held++] = by_end[i].call;
    }
    free(by_end), free(copies), free(paged), free(held);
}

/* When the work a sync of stream s waits for had ended in the recording (last_end: each stream's latest end so
 * far): its own, the blocking streams' for the legacy stream, the legacy stream's for a blocking one. */
static double synced_end(const rp_trace *t, const double *last_end, int s)
{
    double end = last_end[s];
    if (s != GL_SCHED_LEGACY)
        return t->streams[s].kind == GL_SCHED_STREAM_NONBLOCKING ? end : fmax(end, last_end[GL_SCHED_LEGACY]);
    for (int o = GL_SCHED_LEGACY + 1; o < t->n_streams; o++)
        if (t->streams[o].kind != GL_SCHED_STREAM_NONBLOCKING) end = fmax(end, last_end[o]);
    return end;
}

/* A call that returns once its copy has ended spends host time of its own around the copy: staging a pageable
 * copy before the DMA (28 us for 388 KiB in event-programs' recording), copying the staging buffer to pageable
 * memory after it (174 us for 1.6 MiB). Before: from the call to the copy's start where the stream was idle at
 * the call (else the copy waited for its stream, and that wait is the model's; an H2D the host waits for still
 * stages first, its time the idle ones' median: staging_ns, rp_stage_busy_h2d), and for a D2H from when the D2H
 * engine was free, where no earlier D2H still ran as it began (one that began beside another waited for none; its
 * DMA comes first, the host's copy-out after it: a wait for the engine is the model's too;
 * validate-replay's random 27 at C=1: a 28 KiB D2H called 126 us into the run began at 4045 us, as a 190 MB D2H
 * of another stream ended; kept as host time, its DMA was issued behind a later D2H held 7 ms by its stream, and the
 * replay was 4-25% long in six recordings, 0-4% with the rule). An H2D's time before its DMA is the host's own
 * staging, which also decides which copy the engine takes first: taken as a wait too, one recording of random 28
 * at C=1 went from 8% to 49% long, two others from 1% to 12% and 19%. After:
 * from the copy's end to the return. Both are kept as host time around the modelled wait. */
static void host_waits(rp_trace *t)
{
    int *order = rp_calls_by_start(t);
    double *last_end = (double *)gl_xmalloc(sizeof(double) * (size_t)(t->n_streams + 1));
    for (int s = 0; s < t->n_streams; s++) last_end[s] = -INFINITY;
    /* A pageable D2H stages once its predecessor's call has returned (the recordings: its copy began 6-89 us after
     * that return, 12-259 us after that copy's end), and so does an H2D the host waits for (random 28 at C=1: its
     * DMA 182 us after that return); the time from that return to the DMA is its own staging (pre_ns). The model
     * frees the staging at the copy's end and keeps the predecessor's copy-out after it as host time; pointing the
     * link at that host time instead made random 11's two recordings 1.1% and 2.6% short, against 0.3% and 0.1%. */
    d2h_order d2h;
    d2h_order_build(t, &d2h);
    staging_previous(t, &d2h);
    double *staged = (double *)gl_xmalloc(sizeof(double) * ((size_t)t->n_calls + 1)); /* idle streams' staging */
    t->staging_n = 0;
    for (int i = 0; i < t->n_calls; i++) t->calls[i].staged_from_ns = NAN;
    for (int k = 0; k < t->n_calls; k++) {
        rp_call *c = &t->calls[order[k]];
        for (int n = 0; c->kind == RP_GRAPH && n < c->n_nodes; n++) { /* a graph launch keeps its streams busy */
            const rp_node *nd = &t->nodes[c->node_first + n];
            last_end[nd->stream] = fmax(last_end[nd->stream], nd->gpu_end_ns);
        }
        if (c->kind != RP_LAUNCH && c->kind != RP_COPY) continue;
        if (c->kind == RP_COPY) {
            c->waits = c->sync || rp_host_waits_pageable(c->pageable, c->dir, c->bytes);
            /* A cudaMemcpy from pageable memory that the driver stages at once syncs its stream, stages, and
             * returns as its DMA is issued (the runtime API's synchronization notes): in the 377 such calls that
             * found their stream busy (tests/data, and 36 NVIDIA samples at C=8 and 1, H200, session 28) the call
             * returned 4-50 us after the stream's last end and the DMA began 0.5-2.5 us after the return. Its
             * time from the later of its call and that end to its return is the staging; nothing waits for the
             * DMA. Taken as a copy the call waited for, with its staging only where the stream was idle at the
             * call, vectorAdd's second H2D (called 2 us before the first one's DMA ended, whose call had returned
             * first) was issued 35 us early and the replay ran 9.8% short. Where the DMA began before the return
             * (vectorAdd's first, by 3.8 us), the staging ends at the DMA and the rest follows it. */
            c->staged_sync = c->sync && c->pageable && c->dir == GL_SCHED_H2D && c->bytes <= RP_STAGED_BYTES;
            if (c->staged_sync) {
                double from = fmax(c->start_ns, synced_end(t, last_end, c->stream));
                c->pre_ns = fmax(0, fmin(c->end_ns, c->gpu_start_ns) - from);
                c->post_ns = fmax(0, c->end_ns - fmax(from, c->gpu_start_ns));
            } else if (c->waits) {
                int before = c->staging_prev;
                double from = before >= 0 ? fmax(c->start_ns, t->calls[before].end_ns) : c->start_ns;
                int idle = last_end[c->stream] <= from && last_end[GL_SCHED_LEGACY] <= from;
                double busy = c->dir == GL_SCHED_D2H ? engine_busy_before(&d2h, c->gpu_start_ns) : -INFINITY;
                if (busy <= c->gpu_start_ns) from = fmax(from, busy); /* one still running: it went beside it */
                c->pre_ns = idle ? fmax(0, c->gpu_start_ns - from) : 0;
                c->post_ns = fmax(0, c->end_ns - c->gpu_end_ns);
                if (waited_h2d(c)) { /* an idle stream's times its staging; a busy one's gets it (rp_stage_busy_h2d) */
                    if (idle) staged[t->staging_n++] = c->pre_ns;
                    else c->staged_from_ns = from;
                }
            }
        }
        last_end[c->stream] = fmax(last_end[c->stream], c->gpu_end_ns);
    }
    t->staging_ns = gl_stats_of(staged, t->staging_n).median;
    free(order), free(last_end), free(d2h.by_start), free(d2h.end_max), free(staged);
}

int rp_stage_busy_h2d(rp_trace *t, double staging_ns, int in_order)
{
    t->staged_busy = t->staged_ordered = 0;
    /* The H2D copies that take the engine, each at when it went there: a call's return, or for cudaMemcpy of
     * pinned memory (the host waits, nothing to stage) its call; pageable ones the host waits for are ordered
     * among themselves by their staging (staging_previous), and their own push is what is being found. */
    timed_call *h2d = (timed_call *)gl_xmalloc(sizeof *h2d * ((size_t)t->n_calls + 1));
    int n = 0;
    for (int i = 0; i < t->n_calls; i++) {
        const rp_call *c = &t->calls[i];
        if (c->kind == RP_COPY && c->dir == GL_SCHED_H2D && !c->captured && !(c->waits && c->pageable) &&
            c->bytes > (c->pageable ? RP_INLINE_BYTES : RP_BESIDE_BYTES))
            h2d[n++] = (timed_call){c->waits ? c->start_ns : c->end_ns, 0, i};
    }
    qsort(h2d, (size_t)n, sizeof *h2d, by_time);
    for (int i = 0; i < t->n_calls; i++) {
        rp_call *c = &t->calls[i];
        if (isnan(c->staged_from_ns)) continue;
        double from = c->staged_from_ns, room = c->gpu_start_ns - from;
        double push = from + fmax(0, fmin(staging_ns, room));
        if (in_order) {
            /* Of the copies that went to the engine after the staging could begin and before this one began, the
             * last that began before it (lo) and the first that began after it (hi). The engine keeps its order,
             * so every one after that first began after it too: the scan stops there. */
            double lo = -INFINITY, hi = INFINITY;
            for (int k = timed_before(h2d, n, from, 1); k < n && h2d[k].t < c->gpu_start_ns; k++) {
                if (t->calls[h2d[k].call].gpu_start_ns >= c->gpu_start_ns) {
                    hi = h2d[k].t;
                    break;
                }
                lo = h2d[k].t;
            }
            double margin = fmin(RP_ORDER_NS, (hi - lo) / 2);
            if (push <= lo + margin && lo < hi) push = lo + margin;
            else if (push >= hi - margin && lo < hi) push = hi - margin; /* before from: no staging (below) */
        }
        c->pre_ns = fmax(0, fmin(push - from, room));
        t->staged_ordered += c->pre_ns != fmax(0, fmin(staging_ns, room));
        t->staged_busy++;
    }
    free(h2d);
    return t->staged_busy;
}

/* A graph launch traced whole (GRAPH_TRACE: start, end, streamId, correlationId) by a call the replay takes: its
 * work counts in the recorded span, so that the replay, which keeps its call as host time, shows what it missed. */
static void whole_row(sqlite3_stmt *st, void *ctx)
{
    loading *L = (loading *)ctx;
    if (idmap_find(&L->corr, sqlite3_column_int64(st, 3)) < 0) return; /* another process's, or outside --range */
    work_call_span(L, st);
    L->whole++;
}

/* The first call of thread that started at or after at (calls sorted by thread, then start); n_calls if none. */
static int first_call_from(const rp_trace *t, int thread, double at)
{
    int lo = 0, hi = t->n_calls;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const rp_call *c = &t->calls[mid];
        if (c->thread < thread || (c->thread == thread && c->start_ns < at)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The calls that build graphs or bracket a capture, read from every call of the process whatever --range takes
 * (a graph is often built, or a capture begun, before the range): start, end, globalTid and what it is. */
enum { MARK_OTHER, MARK_HOST, MARK_COPY_OF, MARK_BEGIN, MARK_END };
typedef struct mark {
    double start, end;
    long long tid;
    int kind;
} mark;
typedef struct marks {
    mark *m;
    int n, cap;
} marks;

static void mark_row(sqlite3_stmt *st, void *ctx) /* RUNTIME: start, end, globalTid, name */
{
    marks *ms = (marks *)ctx;
    const char *n = (const char *)sqlite3_column_text(st, 3);
    if (!n) return;
    int kind = strstr(n, "AddHostNode") || strstr(n, "LaunchHostFunc") || strstr(n, "StreamAddCallback") ? MARK_HOST
               : strstr(n, "Instantiate") || strstr(n, "Clone")                                          ? MARK_COPY_OF
               : strstr(n, "BeginCapture")                                                               ? MARK_BEGIN
               : strstr(n, "EndCapture")                                                                 ? MARK_END
                                                                                                         : MARK_OTHER;
    gl_grow((void **)&ms->m, &ms->cap, ms->n + 1, sizeof *ms->m);
    ms->m[ms->n++] = (mark){col_num(st, 0), col_num(st, 1), sqlite3_column_int64(st, 2), kind};
}

/* The kind of the mark of thread tid under way at time at (marks in start order), or MARK_OTHER. */
static int mark_at(const marks *ms, long long tid, double at)
{
    int lo = 0, hi = ms->n - 1, last = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (ms->m[mid].start <= at) last = mid, lo = mid + 1;
        else hi = mid - 1;
    }
    for (int i = last, seen = 0; i >= 0 && seen < 64; i--, seen++) /* the threads' calls interleave: look back a little */
        if (ms->m[i].tid == tid) return at <= ms->m[i].end ? ms->m[i].kind : MARK_OTHER;
    return MARK_OTHER;
}

/* CUDA_GRAPH_NODE_EVENTS rows (start, globalTid, graphNodeId, originalGraphNodeId) in start order: a node made by a
 * call (cudaGraphAddHostNode, or cudaLaunchHostFunc while capturing) is a host node or not by that call's name; one
 * instantiated or cloned from another (its origin named) is what its origin is. host: node id -> 1 or 0; count:
 * executable graph (the id's upper 32 bits) -> its host nodes. */
typedef struct node_types {
    const marks *ms;
    idmap host, count;
} node_types;

static void node_event_row(sqlite3_stmt *st, void *ctx)
{
    node_types *nt = (node_types *)ctx;
    long long id = sqlite3_column_int64(st, 2);
    int host;
    if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
        host = idmap_find(&nt->host, sqlite3_column_int64(st, 3)) == 1;
    } else {
        int kind = mark_at(nt->ms, sqlite3_column_int64(st, 1), col_num(st, 0));
        if (kind == MARK_COPY_OF) return; /* the row naming its origin follows */
        host = kind == MARK_HOST;
    }
    if (idmap_find(&nt->host, id) >= 0) return;
    idmap_put(&nt->host, id, host);
    if (!host) return;
    idmap_inc(&nt->count, (long long)((unsigned long long)id >> 32));
}

static int by_launch_then_start(const void *a, const void *b)
{
    const rp_node *x = (const rp_node *)a, *y = (const rp_node *)b;
    if (x->call != y->call) return x->call - y->call;
    return (x->gpu_start_ns > y->gpu_start_ns) - (x->gpu_start_ns < y->gpu_start_ns);
}

/* A graph launch as graphs_finish looks them up: its graph (-1: no node of its own names one), call and start. */
typedef struct launch_key {
    long long graph;
    double start;
    int call;
} launch_key;

static int by_graph_then_start(const void *x, const void *y)
{
    const launch_key *a = (const launch_key *)x, *b = (const launch_key *)y;
    if (a->graph != b->graph) return a->graph < b->graph ? -1 : 1;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->call - b->call;
}

/* The last of the keys (sorted by graph, then start) of graph g called at or before at; -1: none. */
static int latest_launch(const launch_key *k, int n, long long g, double at)
{
    int lo = 0, hi = n; /* the first key after (g, at) */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (k[mid].graph < g || (k[mid].graph == g && k[mid].start <= at)) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && k[lo - 1].graph == g ? lo - 1 : -1;
}

/* After the calls are sorted: the calls a thread made while capturing a stream into a graph ran nothing (a
 * captured cudaStreamWaitEvent still has a SYNCHRONIZATION row) and stay host time; each graph launch gets its
 * nodes, by recorded start, its stream (that of the node that ended last: the launch joins its branches there)
 * and its graph's host nodes. */
static int graphs_finish(reader *r, loading *L)
{
    rp_trace *t = L->t;
    marks ms = {NULL, 0, 0};
    char sql[600];
    snprintf(sql, sizeof sql, "SELECT r.start, r.end, r.globalTid, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
             "StringIds s ON s.id = r.nameId WHERE (r.globalTid / 16777216) = %lld AND (s.value LIKE '%%AddHostNode%%' "
             "OR s.value LIKE '%%LaunchHostFunc%%' OR s.value LIKE '%%StreamAddCallback%%' OR s.value LIKE "
             "'%%Instantiate%%' OR s.value LIKE '%%GraphClone%%' OR s.value LIKE '%%Capture%%') ORDER BY r.start",
             L->pid / 16777216);
    int rc = each_row(r, sql, mark_row, &ms);
    /* Captures, from each BeginCapture's return to its thread's next EndCapture's call: its calls in them ran
     * nothing (those outside a --range too; a capture begun before the range still holds). */
    for (int b = 0; b < ms.n && !rc; b++) {
        if (ms.m[b].kind != MARK_BEGIN) continue;
        double until = INFINITY;
        for (int e = b + 1; e < ms.n; e++)
            if (ms.m[e].tid == ms.m[b].tid && ms.m[e].kind == MARK_END) {
                until = ms.m[e].start;
                break;
            }
        int th = idmap_find(&L->threads, ms.m[b].tid);
        for (int i = th < 0 ? t->n_calls : first_call_from(t, th, ms.m[b].end); i < t->n_calls; i++) {
            rp_call *c = &t->calls[i];
            if (c->thread != th || c->start_ns >= until) break;
            c->captured = 1;
            if (c->kind != RP_LAUNCH && c->kind != RP_COPY && c->kind != RP_GRAPH) c->kind = RP_HOST;
        }
    }
    if (rc || t->n_nodes == 0) {
        free(ms.m);
        return rc;
    }
    int *sorted = (int *)gl_xmalloc(sizeof(int) * (size_t)(t->n_calls + 1)); /* index before the sort -> after */
    for (int i = 0; i < t->n_calls; i++) sorted[i] = -1;
    for (int i = 0; i < t->n_calls; i++)
        if (t->calls[i].kind == RP_GRAPH) sorted[t->calls[i].node_first] = i, t->calls[i].n_nodes = 0;
    /* A conditional body's node (RP_BODY_CALL) is taken as part of the launch of its graph called last before it
     * began; where none had a node of its own in that graph, of the launches with no node of their own (a graph
     * of one conditional node): the trace names no launch for it, and a launch of another graph, from another
     * thread, may come between. Under --range, a body whose launch was called outside the range is not its. */
    long long *graph_of = (long long *)gl_xmalloc(sizeof(long long) * (size_t)(t->n_calls + 1));
    char *bodied = (char *)gl_xcalloc((size_t)t->n_calls + 1, 1); /* a launch that took a body's node */
    for (int i = 0; i < t->n_calls; i++) graph_of[i] = -1;
    for (int k = 0; k < t->n_nodes; k++) {
        int c = t->nodes[k].call >= 0 && t->nodes[k].call < t->n_calls ? sorted[t->nodes[k].call] : -1;
        if (c >= 0 && t->nodes[k].graph >= 0) graph_of[c] = t->nodes[k].graph;
    }
    launch_key *keys = (launch_key *)gl_xmalloc(sizeof *keys * (size_t)(t->n_calls + 1));
    int n_keys = 0;
    for (int i = 0; i < t->n_calls; i++)
        if (strstr(t->names[t->calls[i].name], "GraphLaunch") && !t->calls[i].captured)
            keys[n_keys++] = (launch_key){graph_of[i], t->calls[i].start_ns, i};
    qsort(keys, (size_t)n_keys, sizeof *keys, by_graph_then_start);
    int kept = 0; /* a node whose call is no graph launch (none should be) is left out, counted as dropped */
    for (int k = 0; k < t->n_nodes; k++) {
        rp_node *n = &t->nodes[k];
        int c = n->call >= 0 && n->call < t->n_calls ? sorted[n->call] : -1;
        if (n->call == RP_BODY_CALL) {
            int j = latest_launch(keys, n_keys, n->graph, n->gpu_start_ns);
            if (j < 0) j = latest_launch(keys, n_keys, -1, n->gpu_start_ns);
            double called = j >= 0 ? keys[j].start : -INFINITY;
            int n_out = timed_before(L->out_launches, L->n_out_launches, n->gpu_start_ns, 1);
            double out = n_out > 0 ? L->out_launches[n_out - 1].t : -INFINITY;
            if (out > called || (L->range && j < 0)) continue; /* its launch is outside the range */
            t->gpu_first_ns = fmin(t->gpu_first_ns, n->gpu_start_ns);
            t->gpu_last_ns = fmax(t->gpu_last_ns, n->gpu_end_ns);
            c = j >= 0 ? keys[j].call : -1;
            if (c >= 0 && t->calls[c].kind != RP_GRAPH) t->calls[c].kind = RP_GRAPH, t->calls[c].n_nodes = 0;
            if (c >= 0) t->body_nodes++, bodied[c] = 1;
        }
        if (c < 0) {
            t->dropped++;
            continue;
        }
        t->nodes[kept] = *n, t->nodes[kept++].call = c;
    }
    t->n_nodes = kept;
    free(sorted), free(graph_of), free(keys);
    qsort(t->nodes, (size_t)t->n_nodes, sizeof *t->nodes, by_launch_then_start);
    /* The launch stream: of the streams its nodes ran in, the one the program's own calls use (the driver's streams
     * for branches appear in nothing else), the one whose node ended last among those; without one, the stream of
     * the node that ended last (the launch joins its branches there). */
    char *used = (char *)gl_xcalloc((size_t)t->n_streams + 1, 1);
    for (int i = 0; i < t->n_calls; i++)
        if (t->calls[i].kind != RP_GRAPH && t->calls[i].stream >= 0) used[t->calls[i].stream] = 1;
    for (int k = 0; k < t->n_nodes; k++) {
        rp_call *c = &t->calls[t->nodes[k].call];
        const rp_node *n = &t->nodes[k];
        if (c->n_nodes++ == 0) c->node_first = k, t->graph_launches++, c->stream = -1;
        int better = c->stream < 0 || (used[n->stream] > used[c->stream]) ||
                     (used[n->stream] == used[c->stream] && n->gpu_end_ns >= c->gpu_end_ns);
        if (better) c->stream = n->stream, c->gpu_end_ns = n->gpu_end_ns;
        if (c->n_nodes == 1 || n->gpu_start_ns < c->gpu_start_ns) c->gpu_start_ns = n->gpu_start_ns;
    }
    /* A launch of conditional bodies alone ran no node in a stream of the program's: its launch stream is taken
     * to be that of its thread's latest earlier call that named one (graphConditionalNodes' while graph: the
     * stream of the memset before it), so that it follows that stream's work and that stream's later work waits
     * for it. */
    for (int i = 0; i < t->n_calls; i++) {
        rp_call *c = &t->calls[i];
        if (c->kind != RP_GRAPH || !bodied[i] || used[c->stream]) continue;
        for (int j = i - 1; j >= 0 && t->calls[j].thread == c->thread; j--)
            if (t->calls[j].kind != RP_GRAPH && t->calls[j].stream >= 0 && used[t->calls[j].stream]) {
                c->stream = t->calls[j].stream;
                break;
            }
    }
    free(used), free(bodied);
    node_types nt;
    memset(&nt, 0, sizeof nt);
    nt.ms = &ms;
    rc = has_table(r, "CUDA_GRAPH_NODE_EVENTS") == 1
                 ? each_row(r, "SELECT start, globalTid, graphNodeId, originalGraphNodeId FROM CUDA_GRAPH_NODE_EVENTS "
                            "ORDER BY start", node_event_row, &nt)
                 : 0;
    for (int i = 0; i < t->n_calls && !rc; i++) {
        rp_call *c = &t->calls[i];
        if (c->kind != RP_GRAPH || c->n_nodes == 0) continue;
        long long graph = -1; /* the launch's executable graph, from a node that names it */
        for (int k = c->node_first; k < c->node_first + c->n_nodes && graph < 0; k++) graph = t->nodes[k].graph;
        int hn = graph < 0 ? -1 : idmap_find(&nt.count, graph);
        c->host_nodes = hn > 0 ? hn : 0;
        t->graph_host_nodes += c->host_nodes;
    }
    idmap_free(&nt.host), idmap_free(&nt.count);
    free(ms.m);
    return rc;
}

static int by_thread_then_start(const void *a, const void *b)
{
    const rp_call *x = (const rp_call *)a, *y = (const rp_call *)b;
    if (x->thread != y->thread) return x->thread - y->thread;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

int rp_import(const char *path, rp_trace *t, char *err, int errlen)
{
    return rp_import_range(path, NULL, -1, t, err, errlen);
}

/* A thread's cudaEventQuery calls on one event that found it unfinished, then one that found it done, are a
 * polling loop (asyncAPI's, the textbook's counter): nsys 2025.3 records each query, the unfinished ones with
 * cudaErrorNotReady. The loop is a wait for the event: at another setting it ends when the event does, where its
 * recorded time would carry the recorded setting's. A query alone, or a loop that gave up, stays host time. */
static void polls(rp_trace *t)
{
    /* Each event's first record (the calls are by thread, so found in one pass, not per loop). */
    double *first_record = (double *)gl_xmalloc(sizeof(double) * ((size_t)t->n_events + 1));
    for (int e = 0; e < t->n_events; e++) first_record[e] = INFINITY;
    for (int k = 0; k < t->n_calls; k++)
        if (t->calls[k].kind == RP_RECORD)
            first_record[t->calls[k].event] = fmin(first_record[t->calls[k].event], t->calls[k].start_ns);
    for (int i = 0; i < t->n_calls; i++) {
        const rp_call *c = &t->calls[i];
        if (!c->unfinished || c->event < 0 || strcmp(t->names[c->name], "cudaEventQuery")) continue;
        int j = i + 1;
        while (j < t->n_calls && t->calls[j].thread == c->thread && t->calls[j].unfinished &&
               t->calls[j].event == c->event && t->calls[j].name == c->name)
            j++;
        /* It ends in a query that succeeded, and the trace has the record it waited for (one outside --range, or
         * without its CUDA_EVENT row, would make the wait end at once: the loop stays host time then). */
        if (j == t->n_calls || t->calls[j].thread != c->thread || t->calls[j].event != c->event ||
            t->calls[j].name != c->name || t->calls[j].ret != 0 || !(first_record[c->event] < c->start_ns)) {
            i = j - 1;
            continue;
        }
        for (int k = i; k <= j; k++) t->calls[k].kind = RP_POLL, t->calls[k].poll = k == i ? 1 : k == j ? 3 : 2;
        t->polls++, t->poll_queries += j - i + 1;
        i = j;
    }
    free(first_record);
}

int rp_import_range(const char *path, const char *range, int lazy, rp_trace *t, char *err, int errlen)
{
    memset(t, 0, sizeof *t);
    t->lazy = 1, t->gpu_first_ns = INFINITY, t->gpu_last_ns = -INFINITY;
    snprintf(t->schema, sizeof t->schema, "?");
    reader r = {NULL, path, err, errlen};
    FILE *f = fopen(path, "rb");
    if (!f) return fail(&r, "%s: cannot open it", path);
    fclose(f);
    if (sqlite3_open_v2(path, &r.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fail(&r, "%s: %s", path, r.db ? sqlite3_errmsg(r.db) : "cannot open it");
        sqlite3_close(r.db);
        return RP_BAD;
    }
    loading L;
    memset(&L, 0, sizeof L);
    L.t = t, L.legacy_id = -1, L.range = range && range[0] ? range : NULL;
    kernel_ctx k = {&L, {32, 64, 65536, 233472}};
    static const char *const needed[] = {"StringIds", "CUPTI_ACTIVITY_KIND_RUNTIME", "TARGET_INFO_CUDA_STREAM"};
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        int h = has_table(&r, needed[i]);
        if (h < 0) rc = RP_BAD;
        else if (!h)
            rc = fail(&r, "%s has no %s table: not an nsys export of a CUDA trace (record with nsys profile -t cuda "
                      "--cuda-event-trace=true, then nsys export --type sqlite)", path, needed[i]);
    }
    /* Each query names the columns it reads, so a column this export lacks is named by SQLite's message. */
    if (!rc && has_table(&r, "META_DATA_EXPORT") == 1)
        rc = each_row(&r, "SELECT value FROM META_DATA_EXPORT WHERE name='EXPORT_SCHEMA_VERSION'", schema_row, &L);
    if (!rc && has_table(&r, "TARGET_INFO_GPU") == 1)
        rc = each_row(&r, "SELECT smCount, computeMajor, computeMinor, maxBlocksPerSm, maxWarpsPerSm, "
                      "maxRegistersPerSm, maxShmemPerSm, name FROM TARGET_INFO_GPU", gpu_row, &k);
    if (!rc && has_table(&r, "TARGET_INFO_CUDA_CONTEXT_INFO") == 1)
        rc = each_row(&r, "SELECT nullStreamId FROM TARGET_INFO_CUDA_CONTEXT_INFO", legacy_row, &L);
    t->n_streams = 1; /* the legacy stream */
    t->streams = (gl_sched_stream *)gl_xcalloc(1, sizeof *t->streams);
    t->streams[0].kind = GL_SCHED_STREAM_LEGACY, t->streams[0].thread = -1;
    if (!rc)
        rc = each_row(&r, "SELECT streamId, priority, flag FROM TARGET_INFO_CUDA_STREAM ORDER BY streamId", stream_row, &L);
    if (!rc && has_table(&r, "META_DATA_CAPTURE") == 1)
        rc = each_row(&r, "SELECT value FROM META_DATA_CAPTURE WHERE name LIKE '%ENVIRONMENT_VARIABLE'", env_row, &L);
    if (!rc)
        rc = count_processes(&r, &L);
    if (!rc && L.processes == 0 && has_table(&r, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE") == 1)
        rc = fail(&r, "%s: the trace has no kernel, copy or memset, only graph launches traced whole: record with nsys "
                  "profile --cuda-graph-trace=node, whose rows the replay takes node by node", path);
    if (!rc && L.processes == 0) rc = fail(&r, "%s: the trace has no kernel, copy or memset: nothing to replay", path);
    if (!rc && L.processes > 1)
        rc = fail(&r, "%s: GPU work of %d processes; the replay takes one process at a time", path, L.processes);
    if (!rc && L.devices > 1)
        rc = fail(&r, "%s: GPU work on %d devices; the replay takes one GPU at a time", path, L.devices);
    if (!rc && L.range) {
        if (has_table(&r, "NVTX_EVENTS") != 1)
            rc = fail(&r, "%s has no NVTX ranges for --range (record with nsys profile -t cuda,nvtx)", path);
        else
            rc = each_row(&r, "SELECT n.start, n.end, COALESCE(n.text, s.value) FROM NVTX_EVENTS n LEFT JOIN "
                          "StringIds s ON s.id = n.textId WHERE n.end IS NOT NULL ORDER BY n.start", range_row, &L);
        if (!rc && t->ranges_matched == 0)
            rc = fail(&r, "%s: no NVTX range is named '%s' (nsys stats --report nvtx_sum lists them)", path, L.range);
    }
    if (!rc) { /* the GPU's process's calls only: correlation ids start again in each process */
        char sql[400];
        /* returnValue (schema 3.20) tells a query that found its work unfinished; without it none is known so */
        int ret = has_column(&r, "CUPTI_ACTIVITY_KIND_RUNTIME", "returnValue") == 1;
        snprintf(sql, sizeof sql, "SELECT r.start, r.end, r.globalTid, r.correlationId, r.nameId, s.value, %s FROM "
                 "CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN StringIds s ON s.id = r.nameId "
                 "WHERE (r.globalTid / 16777216) = %lld ORDER BY r.start", ret ? "r.returnValue" : "NULL",
                 L.pid / 16777216);
        rc = each_row(&r, sql, runtime_row, &L);
    }
    if (!rc && t->n_calls == 0) rc = fail(&r, "%s: the trace has no CUDA runtime call of the GPU's process", path);
    static const char *const work[][2] = {
        {"CUPTI_ACTIVITY_KIND_KERNEL", "SELECT start, end, streamId, correlationId, globalPid, deviceId, gridX, gridY, "
         "gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory, graphNodeId%s "
         "FROM CUPTI_ACTIVITY_KIND_KERNEL"},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", "SELECT start, end, streamId, correlationId, globalPid, deviceId, bytes, "
         "copyKind, srcKind, dstKind%s FROM CUPTI_ACTIVITY_KIND_MEMCPY"},
        {"CUPTI_ACTIVITY_KIND_MEMSET", "SELECT start, end, streamId, correlationId, globalPid, deviceId, bytes%s FROM "
         "CUPTI_ACTIVITY_KIND_MEMSET"},
        {"CUPTI_ACTIVITY_KIND_CUDA_EVENT",
         "SELECT correlationId, streamId, eventId FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT"},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "SELECT correlationId, streamId, eventId, syncType FROM "
         "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"}};
    void (*rows[])(sqlite3_stmt *, void *) = {kernel_row, memcpy_row, memset_row, record_row, sync_row};
    void *ctxs[] = {&k, &L, &L, &L, &L};
    for (int i = 0; i < 5 && !rc; i++) {
        if (has_table(&r, work[i][0]) != 1) continue;
        char sql[400]; /* a copy's or memset's graphNodeId where the export has one (a kernel's is required), and a
                        * kernel's name (its shortName) where the export has one */
        const char *more = i == 0 ? (has_column(&r, work[i][0], "shortName") == 1 ? ", shortName" : ", NULL")
                                  : has_column(&r, work[i][0], "graphNodeId") ? ", graphNodeId" : "";
        snprintf(sql, sizeof sql, work[i][1], more);
        rc = each_row(&r, sql, rows[i], ctxs[i]);
    }
    if (!rc && has_table(&r, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE") == 1) /* in the recorded span, not in the replay */
        rc = each_row(&r, "SELECT start, end, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE", whole_row,
                      &L);
    t->graphs_whole = (int)L.whole;
    if (rc && strstr(err, "no such column"))
        snprintf(err + strlen(err), (size_t)(errlen - (int)strlen(err)), " (export schema %s; the replay reads 3.20)",
                 t->schema);
    if (lazy >= 0) t->lazy = lazy; /* the caller knows better than the recorded environment */
    if (!rc && t->too_big)
        rc = fail(&r, "%s: a kernel of %lld blocks: the replay takes grids of 1 to 2^26 blocks (the model hands out "
                  "blocks one at a time: 2^31 would take it minutes a setting)", path, t->too_big);
    if (!rc && t->sms <= 0) t->sms = 132;
    if (!rc) {
        qsort(t->calls, (size_t)t->n_calls, sizeof *t->calls, by_thread_then_start);
        rc = graphs_finish(&r, &L); /* which puts conditional bodies' nodes in the span */
    }
    if (!rc && !(t->gpu_last_ns > t->gpu_first_ns))
        rc = L.range ? fail(&r, "%s: the calls made in NVTX range '%s' launched no kernel, copy or memset: nothing to "
                            "replay", path, t->range)
                     : fail(&r, "%s: the trace has no kernel, copy or memset: nothing to replay", path);
    if (!rc) {
        for (int i = 0; i < t->n_calls; i++) {
            rp_call *c = &t->calls[i];
            const char *n = t->names[c->name];
            /* cudaMemcpy returns once its copy has ended, but for a device-to-device one; cudaMemset of device
             * memory returns at once (in copy-overlap's trace 187 of 188 returned before their memset ended). */
            c->sync = c->kind == RP_COPY && !strcmp(n, "cudaMemcpy") && c->dir != GL_SCHED_D2D;
            /* Under lazy loading a function's first launch looks it up (cuLibraryGetKernel) and loads it: the
             * thread's next launch carries the load (gl_sched.h, "Loads"). Eager runs look up too, and load nothing. */
            if (t->lazy && !strcmp(n, "cuLibraryGetKernel")) {
                for (int j = i + 1; j < t->n_calls && t->calls[j].thread == c->thread; j++)
                    if (t->calls[j].kind == RP_LAUNCH) {
                        t->calls[j].load = 1;
                        break;
                    }
            }
            /* A device synchronization needs no SYNCHRONIZATION row to be known (nsys 2025.3 writes none for it). */
            if (c->kind == RP_HOST && (!strcmp(n, "cudaDeviceSynchronize") || !strcmp(n, "cuCtxSynchronize")))
                c->kind = RP_SYNC_DEVICE;
        }
        host_functions(t);
        if (t->hostfns > 0) rc = driver_runs(&r, &L);
        host_waits(t);
        held_calls(t);
        polls(t);
        for (int i = 0; i < t->n_calls; i++) {
            const rp_call *c = &t->calls[i];
            t->name_counts[c->name]++;
            /* host time, but a lazy load's lookup (its launch carries the load) */
            t->name_kept[c->name] += c->kind == RP_HOST && !(t->lazy && !strcmp(t->names[c->name], "cuLibraryGetKernel"));
        }
    }
    idmap_free(&L.corr), idmap_free(&L.threads), idmap_free(&L.streams), idmap_free(&L.events), idmap_free(&L.names);
    free(L.out_launches);
    sqlite3_close(r.db);
    if (rc) rp_trace_free(t); /* a refused trace leaves nothing behind (a leak checker sees a clean exit 2) */
    return rc;
}

void rp_trace_free(rp_trace *t)
{
    for (int i = 0; i < t->n_names; i++) free(t->names[i]);
    free(t->names), free(t->name_counts), free(t->name_kept), free(t->calls), free(t->streams), free(t->nodes);
    free(t->fn_runs);
    memset(t, 0, sizeof *t);
}

int rp_work_op(const rp_trace *t, gl_sched_program *p, int th, const rp_node *w, int *kernels)
{
    if (w->kind == RP_COPY) {
        int op = gl_sched_copy(p, th, w->stream, w->dir, w->bytes, w->pageable);
        p->ops[op].copy_ns = fmax(1, w->gpu_end_ns - w->gpu_start_ns);
        return op;
    }
    long long per_wave = (long long)w->blocks_per_sm * t->sms;
    long long waves = per_wave > 0 ? (w->blocks + per_wave - 1) / per_wave : 1;
    int op = gl_sched_launch(p, th, w->stream, w->blocks, w->threads, w->blocks_per_sm,
                             (w->gpu_end_ns - w->gpu_start_ns) / (double)(waves > 0 ? waves : 1), (*kernels)++);
    p->ops[op].label = w->kname; /* the sharing fit's kernel (fit.h, rp_fit_kernels) */
    return op;
}

/* Room in the recorded starts, ends and returns for n ops, those not filled yet NaN (none recorded). */
static void recorded_grow(double **rs, double **re, double **rr, int *cap, int *filled, int n)
{
    int old = *cap;
    gl_grow((void **)rs, cap, n + 1, sizeof **rs);
    if (*cap != old && (!(*re = (double *)realloc(*re, sizeof **re * (size_t)*cap)) ||
                        !(*rr = (double *)realloc(*rr, sizeof **rr * (size_t)*cap))))
        gl_die(GL_EXIT_INTERNAL, "out of memory");
    for (; *filled < n; (*filled)++) (*rs)[*filled] = (*re)[*filled] = (*rr)[*filled] = NAN;
}

/* A wait on an event (cudaStreamWaitEvent, cudaEventSynchronize, a cudaEventQuery loop) whose call began after
 * another thread's record of that event had returned, in the recording, comes after that record in the replay too
 * (gl_sched_op.after): the program ordered them itself, with a lock or a flag that no CUDA call shows, or the wait
 * would hold on an older record of the event, or none (event-programs' random 13 on an H100 at C=16: a wait 2.6 us
 * after the record it waited for, whose thread the replay's own pace put later, let a 0.9 ms kernel start 1.2 ms
 * early: -26% of the span). Each record is taken by its return, each wait by its call, in time order. Returns each
 * call's record call, or for a pageable D2H or an H2D the host waits for the other thread's call before it in the
 * staging (staging_previous), or for a held host function's call the call that held it (held_calls) (-1: none), or
 * NULL where the trace has one thread. */
static int is_event_wait(const rp_call *c)
{
    return c->event >= 0 && (c->kind == RP_WAIT || c->kind == RP_SYNC_EVENT || (c->kind == RP_POLL && c->poll == 1));
}

static int *cross_thread_records(const rp_trace *t)
{
    if (t->n_threads < 2) return NULL;
    timed_call *tc = (timed_call *)gl_xmalloc(sizeof *tc * ((size_t)t->n_calls + 1));
    int *link = (int *)gl_xmalloc(sizeof(int) * ((size_t)t->n_calls + 1)), n = 0;
    for (int i = 0; i < t->n_calls; i++) {
        const rp_call *c = &t->calls[i];
        link[i] = -1;
        if (c->captured) continue;
        /* a record at its return, a wait at its call: a record returned at the wait's call counts as before it */
        if (c->kind == RP_RECORD && c->event >= 0) tc[n++] = (timed_call){c->end_ns, 0, i};
        else if (is_event_wait(c)) tc[n++] = (timed_call){c->start_ns, 1, i};
    }
    qsort(tc, (size_t)n, sizeof *tc, by_time);
    int *last = (int *)gl_xmalloc(sizeof(int) * ((size_t)t->n_events + 1)); /* each event's latest record's call */
    for (int e = 0; e < t->n_events; e++) last[e] = -1;
    for (int k = 0; k < n; k++) {
        const rp_call *c = &t->calls[tc[k].call];
        if (!tc[k].wait) last[c->event] = tc[k].call;
        else if (last[c->event] >= 0 && t->calls[last[c->event]].thread != c->thread) link[tc[k].call] = last[c->event];
    }
    free(tc), free(last);
    for (int i = 0; i < t->n_calls; i++) { /* the staging handed over in the recorded order (staging_previous) */
        int before = t->calls[i].staging_prev;
        if (before >= 0 && t->calls[before].thread != t->calls[i].thread) link[i] = before;
    }
    for (int i = 0; i < t->n_calls; i++) /* a host function's call held by another's pageable call (held_calls) */
        if (link[i] < 0 && t->calls[i].held_by >= 0) link[i] = t->calls[i].held_by;
    return link;
}

static const double *rank_rs; /* by_recorded_start's starts (qsort takes no context) */
/* Op indices by recorded start, ties by index. */
static int by_recorded_start(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    return rank_rs[i] < rank_rs[j] ? -1 : rank_rs[i] > rank_rs[j] ? 1 : (i > j) - (i < j);
}

void rp_rank_starts(gl_sched_program *p, const double *rs)
{
    int *ix = (int *)gl_xmalloc(sizeof(int) * ((size_t)p->n_ops + 1)), n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        p->ops[i].rank = 0;
        if ((p->ops[i].kind == GL_SCHED_LAUNCH || p->ops[i].kind == GL_SCHED_COPY) && !isnan(rs[i])) ix[n++] = i;
    }
    rank_rs = rs;
    qsort(ix, (size_t)n, sizeof *ix, by_recorded_start);
    for (int k = 0; k < n; k++) p->ops[ix[k]].rank = k + 1;
    free(ix);
}

void rp_program(const rp_trace *t, gl_sched_program *p, double **rec_start, double **rec_end, double **rec_return)
{
    gl_sched_program_init(p);
    for (int s = 1; s < t->n_streams; s++) gl_sched_stream_new(p, t->streams[s].kind, t->streams[s].priority, -1);
    for (int e = 0; e < t->n_events; e++) gl_sched_event_new(p);
    double t0 = rp_time0(t);
    int cap = t->n_calls * 2 + 2, kernels = 0, filled = 0, *node_op = NULL, cap_node_op = 0;
    double *rs = (double *)gl_xmalloc(sizeof(double) * (size_t)cap);
    double *re = (double *)gl_xmalloc(sizeof(double) * (size_t)cap);
    double *rr = (double *)gl_xmalloc(sizeof(double) * (size_t)cap);
    double last_end = t0;
    int *call_op = (int *)gl_xmalloc(sizeof(int) * ((size_t)t->n_calls + 1)); /* each call's op, -1: none */
    for (int i = 0; i < t->n_calls; i++) call_op[i] = -1;
    int *link = cross_thread_records(t);
    /* A sync that waited returns after its work as it did in the recording: the thread's wake is the host's own
     * time, as its gaps between calls are (gl_sched.h "Host"; host functions keep theirs, rp_fit_wakes). The
     * median (sync_return_ns) stays for the others. threadFenceReduction at C=8 (H200, session 28): 100 device
     * syncs returned 2.2-3.5 us after their kernel or copy but for a few at 40-60 us, which the median made the
     * replay 8.9% short. Not where a host function could be what a sync waited for: rp_sync_returns takes the
     * GPU work only, and the function's own time would count twice. */
    int *by_start = rp_calls_by_start(t);
    double *back = t->hostfns == 0 && t->graph_host_nodes == 0 ? rp_sync_returns(t, by_start) : NULL;
    free(by_start);
    for (int i = 0; i < t->n_calls; i++) {
        const rp_call *c = &t->calls[i];
        if (i == 0 || c->thread != t->calls[i - 1].thread) last_end = t0; /* a thread's first call as late as recorded */
        /* Its own work between calls, or a wait the trace does not show (a cudaStreamQuery loop: nsys 2025.3
         * records no cudaStreamQuery at all; a cudaEventQuery loop it shows, and polls() made it a wait). Taking
         * a gap that ends just after a stream's work for a wait on that stream made event-programs' and callbacks'
         * replays worse (starts 3.7% to 5.3% of the span at p95): a thread that polls several streams, or a
         * stream whose last work is a host function the trace does not show, is not waited for. So did taking a
         * gap that ends within 0.1 ms (0.2 ms in session 7) after the whole GPU went idle for a wait for the
         * device (starts 1.2% to 2.5%, other settings 6.4% to 6.9% median): the waits let the replay's own errors
         * on the GPU side through, where the recorded gap had held the host to its recorded time. The gap stays
         * host time. */
        if (c->kind == RP_POLL && c->poll != 1) { /* inside a loop: the wait (below) holds its time */
            if (c->poll == 3) gl_sched_host(p, c->thread, c->end_ns - c->start_ns); /* the last query's own */
            last_end = fmax(last_end, c->end_ns);
            continue;
        }
        /* A call linked to another thread's (cross_thread_records: a wait on that thread's record of its event,
         * a pageable copy behind that thread's in the staging, a held host function's call) that began within
         * RP_AFTER_RECORD_NS of that call's return spent the gap before it waiting for it: the program's own order
         * between its threads (a flag, a lock, a join), which no CUDA call shows. Its own time is taken from that return; the link
         * (gl_sched_op.after) holds the rest, so that at another setting it moves with the other thread.
         * validate-replay's random 21 at C=1: the main thread's gap of 11.7 ms before five waits ended 12.5 us
         * after the last worker's record returned (that worker 11.7 ms in a pageable D2H held at C=1), 6.6 ms at
         * C=8; kept whole, every prediction from C=1 carried the 11.7 ms. On session 19's recordings of the random
         * programs the other settings went from 3.98% / 49.31% to 3.90% / 33.35% (median / max), the recorded one
         * from 0.13% to 0.17% at the median; 5 us caught too few (49.25% max), 60 us did as 20 (FINDINGS, session
         * 22). Sessions 13 and 19 tried this and left it out: random 10 went 14-21% short at the recorded setting
         * on an H100, and 7.5% short at C=8 on session 17's H200 recordings (the D2H staging's handover); on
         * session 19's, with the model since then, it is as before (0.08%). */
        if (link && link[i] >= 0) {
            double from = t->calls[link[i]].end_ns;
            if (from > last_end && c->start_ns >= from && c->start_ns - from <= RP_AFTER_RECORD_NS) last_end = from;
        }
        if (c->start_ns > last_end) gl_sched_host(p, c->thread, c->start_ns - last_end);
        last_end = fmax(last_end, c->end_ns);
        int op, th = c->thread;
        switch (c->kind) {
        case RP_LAUNCH:
        case RP_COPY: {
            if (c->load) gl_sched_load(p, th, c->stream);
            if (c->staged_sync) { /* then it stages (two statements: the call may move p->ops) */
                int w = gl_sched_sync_stream(p, th, c->stream);
                p->ops[w].wake_ns = -1;
            }
            if (c->pre_ns > 0) gl_sched_host(p, th, c->pre_ns); /* host_waits: staging, before the copy */
            rp_node w = {.call = i, .kind = c->kind, .stream = c->stream, .gpu_start_ns = c->gpu_start_ns,
                         .gpu_end_ns = c->gpu_end_ns, .blocks = c->blocks, .threads = c->threads,
                         .blocks_per_sm = c->blocks_per_sm, .kname = c->kname, .dir = c->dir, .pageable = c->pageable,
                         .bytes = c->bytes, .graph = -1}; /* the call's work, in a node's shape */
            op = rp_work_op(t, p, th, &w, &kernels);
            /* a call that waits for its copy is issued at the copy's recorded start where its stream was idle (its
             * host time before it, pre_ns, reaches there; else the copy waits for its stream, and its arrival
             * matters not), unless its DMA began after it returned (a staged one) */
            if (c->kind == RP_COPY && c->waits && (!c->staged_sync || c->gpu_start_ns < c->end_ns))
                p->ops[op].handed = 1;
            break;
        }
        case RP_RECORD: /* traced by CUPTI, every record holds its queue behind a running kernel, as a timed one does */
            op = gl_sched_record(p, th, c->stream, c->event);
            p->ops[op].timed = t->event_trace;
            break;
        case RP_WAIT: op = gl_sched_wait(p, th, c->stream, c->event); break;
        case RP_HOSTFN: op = gl_sched_hostfn(p, th, c->stream, 0); break; /* its time: rp_fit_hostfns */
        case RP_POLL: /* a loop's first query: the loop waits for its event; its last query's time is its return */
            op = gl_sched_sync_event(p, th, c->event);
            p->ops[op].wake_ns = -1;
            break;
        case RP_SYNC_EVENT: op = gl_sched_sync_event(p, th, c->event); break;
        case RP_SYNC_STREAM: op = gl_sched_sync_stream(p, th, c->stream); break;
        case RP_SYNC_DEVICE: op = gl_sched_sync_stream(p, th, -1); break;
        case RP_GRAPH:
            gl_grow((void **)&node_op, &cap_node_op, c->n_nodes + 1, sizeof *node_op);
            op = rp_graph_ops(t, c, th, p, &kernels, node_op); /* the launch call's op: it keeps its host time */
            break;
        default: op = gl_sched_host(p, th, 0); break;
        }
        call_op[i] = op;
        if (back && !isnan(back[i])) p->ops[op].wake_ns = back[i] > 0 ? back[i] : -1; /* its own wake */
        /* A waiting call's time is the wait, which the model works out; other calls keep their own. */
        /* A pageable copy the host waits for (a D2H, or an H2D over the 2 MiB staged at once) is the wait too. */
        int waits = c->kind == RP_SYNC_EVENT || c->kind == RP_SYNC_STREAM || c->kind == RP_SYNC_DEVICE ||
                    c->kind == RP_POLL || c->kind == RP_GRAPH || c->waits;
        if (c->kind != RP_GRAPH) p->ops[op].issue_ns = waits ? 0 : c->end_ns - c->start_ns; /* graph.c sets it */
        if (c->kind == RP_HOST) p->ops[op].issue_ns = c->end_ns - c->start_ns;
        /* a held host function's call: its own time is from the holder's return (held_by); the link holds the rest */
        if (c->held_by >= 0) p->ops[op].issue_ns = c->end_ns - fmax(c->start_ns, t->calls[c->held_by].end_ns);
        if (c->sync && !c->staged_sync) { /* cudaMemcpy returns once its copy has ended; its time after is post_ns */
            int w = gl_sched_sync_stream(p, th, c->stream); /* two statements: the call may move p->ops */
            p->ops[w].wake_ns = -1;
        }
        if (c->post_ns > 0) gl_sched_host(p, th, c->post_ns);  /* host_waits: after it, before the return */
        recorded_grow(&rs, &re, &rr, &cap, &filled, p->n_ops);
        /* rr: when the call had handed its work over, as far as the recording shows: its return, or for a call
         * that waits for its own copy, its start (the fits bound a host function's hold by how long the work
         * waited after that; a wait's return, after the copy, bounded it below nothing: random 32's function
         * before a pageable D2H was never fitted) */
        if (c->kind == RP_LAUNCH || c->kind == RP_COPY)
            rs[op] = c->gpu_start_ns - t0, re[op] = c->gpu_end_ns - t0,
            rr[op] = ((waits || c->sync) && !c->staged_sync ? c->start_ns : c->end_ns) - t0;
        if (c->kind == RP_SYNC_EVENT || c->kind == RP_SYNC_STREAM || c->kind == RP_SYNC_DEVICE)
            rr[op] = c->end_ns - t0; /* when the wait ended */
        if (c->kind == RP_HOSTFN) rr[op] = c->end_ns - t0; /* where rp_place_hostfns finds the simulation */
        for (int k = 0; c->kind == RP_GRAPH && k < c->n_nodes; k++) {
            const rp_node *n = &t->nodes[c->node_first + k];
            /* its call "returned" (handed it over) as the model's call op was submitted: a launch that waited
             * for a node returns after its nodes have started */
            double handed = c->start_ns + p->ops[op].issue_ns;
            rs[node_op[k]] = n->gpu_start_ns - t0, re[node_op[k]] = n->gpu_end_ns - t0, rr[node_op[k]] = handed - t0;
        }
    }
    recorded_grow(&rs, &re, &rr, &cap, &filled, p->n_ops); /* a loop's last query may be the last op */
    free(node_op);
    for (int i = 0; link && i < t->n_calls; i++)
        if (link[i] >= 0 && call_op[i] >= 0 && call_op[link[i]] >= 0) p->ops[call_op[i]].after = call_op[link[i]];
    free(call_op), free(link), free(back);
    rp_rank_starts(p, rs);
    *rec_start = rs, *rec_end = re;
    if (rec_return) *rec_return = rr;
    else free(rr);
}
