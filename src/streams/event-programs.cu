/* event-programs.cu - random multi-stream programs with events and the legacy stream, against the model.
 *
 * Question: does the model predict random multi-stream programs with cross-stream events and the legacy stream, run by run?
 * Build: none
 * Sanitize: --quick --profile --programs 5 --kernel-us 20 --skip-timing-claims --host-threads 4
 *
 * Programs nobody picked: program i is drawn from seed --seed + i alone, its
 * kind by seed mod 5: fan-in, fan-out, dag (as in stream-events), cross
 * (random records and waits between streams) or legacy (legacy-stream kernels
 * between phases of blocking and non-blocking streams); how they are drawn:
 * experiments/results/FINDINGS.md, "stream-events". Hypothesis and model as
 * stream-events': the core's simulation of the very run that was measured.
 * --population copies draws copies programs instead (issue 18; build_copies):
 * copies both ways of 4 KiB..--copy-mib, pinned and pageable, host functions,
 * kernels on streams at priorities; the machine gets the copy engines and host
 * functions measured in this run too. A copy's start is not measured, so a
 * copies program opens with a kernel every stream waits for and closes with one
 * that waits for all: its makespan (of kernels) spans all, in run and model.
 * Claims per program (table "random", "copies"): every wait, legacy barrier
 * and a DAG's stream order holds in every run (ordering); peak concurrency is
 * the simulation's and the median makespan within --tolerance of it (timing);
 * every kernel ran its time (check). make validate-model judges a population.
 * --host-threads N: each program draws 1..N host threads (stream k issued by
 * thread (k-1) mod T), so that make validate-replay records threaded programs.
 *
 * Run:   make run-event-programs ARGS="--programs 8 --connections 4"
 *        (one program again: ARGS="--programs 1 --seed <its seed>")
 *        make run-event-programs ARGS="--population copies --programs 8"
 * Nsight Systems (make profile-event-programs ARGS=--quick): NVTX ranges
 * "random N (kind, seed ..)", each around a run's calls and its wait alone (not the harness's timing before and
 * readback after it); the legacy stream's kernels on a row of their own.
 */
#include "copies.cuh" /* the copies population's machine, pageable copies' times and copy ends */
#include "events.cuh" /* and math.h, stdio.h, stdlib.h, string.h */

/* What the programs are drawn from, beside the family's lab. */
typedef struct program_lab {
    events_lab E;                 /* report, device, machine, trace, the timer's slack */
    int kernels;                  /* the most kernels per stream (K) */
    int streams_min, streams_max; /* the range of S */
    double kernel_us;             /* the longest T */
    double tolerance;             /* of the makespan claims */
    int population;               /* POP_EVENTS: the five kinds by seed; POP_COPIES: copies programs only */
    double copy_max_bytes;        /* copies programs: the largest copy drawn */
    int prio_least, prio_greatest; /* the device's stream priorities (cudaDeviceGetStreamPriorityRange) */
    int host_threads;             /* the most host threads a program draws (1: every call from one thread) */
} program_lab;

enum { POP_EVENTS, POP_COPIES }; /* --population */
enum { KIND_COPIES = N_KINDS };  /* a sixth kind, drawn only under --population copies */

static const int RANDOM_THREADS[] = {32, 64, 128, 256};
static const double RANDOM_WORK_NS = 20e6; /* a program's kernels end to end, each its mean time: what C=1 may cost */
enum { RANDOM_MAX_KERNELS = 256 };          /* a few hundred kernels at most, whatever the options */
/* A copies program's copies and host functions end to end, each reckoned at a rate that every recent machine
 * reaches (bytes per ns: pinned, pageable), not at this machine's: a seed gives the same program everywhere. */
static const double COPIES_WORK_NS = 80e6;
static const double RECKONED_GBPS[2] = {20, 6};

/* ---- drawing a program ------------------------------------------------------------------ */

/* A program's draws are gl_draws from streams 2000, 2001, ... of its seed (dag_random takes 1000 + its index): the
 * same seed gives the same program on every machine. */

/* The shortest T a program draws: kernel-us/20, but not under 20 us (where the
 * host's few us per launch would be most of a kernel) unless --kernel-us is. */
static double random_min_us(double kernel_us) { return fmin(kernel_us, fmax(kernel_us / 20, 20)); }

/* One random program as drawn: what builds it again from its seed. */
typedef struct program_spec {
    unsigned long long seed; /* --seed + its index: alone, it is --programs 1 --seed <this> */
    int kind;                /* KIND_*: seed mod N_KINDS, so that consecutive seeds take turns */
    int streams;             /* S */
    int kernels;             /* K: kernels per stream (legacy: per stream and phase) */
    int phases;              /* legacy: phases of the streams' work, legacy kernels between them */
    double kernel_ns;        /* T: fan-in and fan-out kernels run it; the others T/2..3T/2 */
    grid k;                  /* every kernel's grid */
    int host_threads;        /* the host threads that issue it */
} program_spec;

/* About how many kernels a spec issues: what the work budget divides. */
static int spec_kernels(const program_spec *ps)
{
    if (ps->kind == KIND_LEGACY) return ps->streams * ps->kernels * ps->phases + 2 * ps->phases;
    return ps->streams * ps->kernels;
}

/* ---- building a program ----------------------------------------------------------------- */

/* Random records and waits between S non-blocking streams, S*K kernels of T/2..3T/2 on streams drawn uniformly:
 * before a kernel (one time in two) a wait for one or two records, recent or any so far; after it (two in five) a
 * record, of a new event or (one in four) of one recorded before; one record in five is waited for at once by
 * 2..S-1 other streams. */
static void build_cross(gl_sched_program *p, const program_spec *ps, gl_draws *d)
{
    int S = ps->streams, n = S * ps->kernels, n_rec = 0, st[MAX_STREAMS], others[MAX_STREAMS];
    /* n <= RANDOM_MAX_KERNELS (random_program), and so are the events */
    int rec[RANDOM_MAX_KERNELS];         /* the event of each record, in order */
    int recorded_on[RANDOM_MAX_KERNELS]; /* each event's latest recording stream */
    new_streams(p, st, S);
    for (int j = 0; j < n; j++) {
        int s = gl_draw_int(d, 0, S - 1);
        if (n_rec > 0 && gl_draw_u(d) < 0.5) {
            int waits = gl_draw_u(d) < 0.3 ? 2 : 1;
            for (int w = 0; w < waits; w++) {
                int recent = gl_draw_u(d) < 0.5;
                int r = recent ? n_rec - 1 - gl_draw_int(d, 0, n_rec < 4 ? n_rec - 1 : 3) : gl_draw_int(d, 0, n_rec - 1);
                if (recorded_on[rec[r]] != s) gl_sched_wait(p, 0, st[s], rec[r]);
            }
        }
        launch(&ps->k, p, st[s], s, j, ps->kernel_ns * (0.5 + gl_draw_u(d)));
        if (gl_draw_u(d) >= 0.4) continue;
        int ev = n_rec > 0 && gl_draw_u(d) < 0.25 ? rec[gl_draw_int(d, 0, n_rec - 1)] : gl_sched_event_new(p);
        gl_sched_record(p, 0, st[s], ev);
        recorded_on[ev] = s;
        rec[n_rec++] = ev;
        if (S > 2 && gl_draw_u(d) < 0.2) {
            /* 2..S-1 of the other streams, a partial shuffle of them. */
            int n_others = 0, m = gl_draw_int(d, 2, S - 1);
            for (int o = 0; o < S; o++)
                if (o != s) others[n_others++] = o;
            for (int i = 0; i < m; i++) {
                int pick = gl_draw_int(d, i, n_others - 1), o = others[pick];
                others[pick] = others[i];
                others[i] = o;
                gl_sched_wait(p, 0, st[o], ev);
            }
        }
    }
}

/* Kernels on the legacy NULL stream between phases of S streams' work (blocking streams, one in four non-blocking
 * but never the first; a phase gives each K kernels of T/2..3T/2, depth- or breadth-first): one or two between
 * phases, and one time in two one before the first or after the last; one legacy kernel in two is recorded, and a
 * non-blocking stream waits for it. */
static void build_legacy(gl_sched_program *p, const program_spec *ps, gl_draws *d)
{
    int S = ps->streams, K = ps->kernels, P = ps->phases, label = 0, n_nb = 0, st[MAX_STREAMS], nonblocking[MAX_STREAMS];
    for (int s = 0; s < S; s++) {
        int nb = s > 0 && gl_draw_u(d) < 0.25;
        st[s] = gl_sched_stream_new(p, nb ? GL_SCHED_STREAM_NONBLOCKING : GL_SCHED_STREAM_BLOCKING, 0, -1);
        if (nb) nonblocking[n_nb++] = s;
    }
    int order = gl_draw_u(d) < 0.5 ? GL_SCHED_DEPTH_FIRST : GL_SCHED_BREADTH_FIRST;
    for (int phase = 0; phase <= P; phase++) {
        int n_legacy = phase > 0 && phase < P ? gl_draw_int(d, 1, 2) : gl_draw_u(d) < 0.5;
        for (int l = 0; l < n_legacy; l++) {
            launch(&ps->k, p, GL_SCHED_LEGACY, S, label++, ps->kernel_ns * (0.5 + gl_draw_u(d)));
            if (n_nb > 0 && gl_draw_u(d) < 0.5) {
                int ev = gl_sched_event_new(p);
                gl_sched_record(p, 0, GL_SCHED_LEGACY, ev);
                gl_sched_wait(p, 0, st[nonblocking[gl_draw_int(d, 0, n_nb - 1)]], ev);
            }
        }
        for (int n = 0; phase < P && n < S * K; n++) {
            int s, j;
            gl_sched_issue_order(order, S, K, n, &s, &j);
            launch(&ps->k, p, st[s], s, label++, ps->kernel_ns * (0.5 + gl_draw_u(d)));
        }
    }
}

/* A copies program on S streams (one in two blocking, one in three at a priority drawn in the device's range): an
 * opening kernel on the first that the others wait for, then max(8, 2 S K) steps, each on a stream drawn uniformly:
 * a kernel of T/2..3T/2 (3 in 10; one in four of them wide: 512..8192 blocks of 128 threads, more than the GPU
 * holds at once, so that priorities decide whose blocks go first; one in twenty on the legacy stream instead, which
 * the blocking streams wait for and which waits for them), a host function of 10 us..2 ms (1 in 10), an H2D or a
 * D2H (2 in 10 each; one in three pageable; bytes log-uniform from 4 KiB to the largest, in whole 4 KiB), a memset
 * or a D2D (8 in 100), or a wait for a record made then on another stream (12 in 100); a copy, host function or
 * wide kernel that would take the program's past COPIES_WORK_NS (reckoned) is left out. Last, a closing kernel on
 * the first waits for all the others. */
static void build_copies(gl_sched_program *p, const program_lab *L, const program_spec *ps, gl_draws *d)
{
    int S = ps->streams, n = (int)fmin(RANDOM_MAX_KERNELS, fmax(8, 2 * S * ps->kernels)), label = 0, st[MAX_STREAMS];
    double budget_ns = COPIES_WORK_NS;
    for (int s = 0; s < S; s++) {
        int kind = gl_draw_u(d) < 0.5 ? GL_SCHED_STREAM_BLOCKING : GL_SCHED_STREAM_NONBLOCKING;
        int priority = gl_draw_u(d) < 1.0 / 3 ? gl_draw_int(d, L->prio_greatest, L->prio_least) : 0;
        st[s] = gl_sched_stream_new(p, kind, priority, -1);
    }
    int ev = gl_sched_event_new(p);
    launch(&ps->k, p, st[0], 0, label++, ps->kernel_ns);
    gl_sched_record(p, 0, st[0], ev);
    for (int s = 1; s < S; s++) gl_sched_wait(p, 0, st[s], ev);
    for (int j = 0; j < n; j++) {
        int s = gl_draw_int(d, 0, S - 1);
        double u = gl_draw_u(d), ns = 0;
        if (u < 0.3) {
            double T = ps->kernel_ns * (0.5 + gl_draw_u(d)), kind = gl_draw_u(d);
            if (kind < 0.25) { /* wide: waves of blocks, reckoned at 2112 slots (128 threads, 132 SMs) */
                grid wide = {gl_draw_log_int(d, 512, 8192), 128, gl_work_blocks_per_sm(128)};
                ns = T * ceil(wide.blocks / 2112.0);
                if (ns <= budget_ns) launch(&wide, p, st[s], s, label++, T);
            } else {
                launch(&ps->k, p, kind < 0.3 ? GL_SCHED_LEGACY : st[s], s, label++, T);
            }
        } else if (u < 0.4) {
            ns = round(exp(log(10e3) + gl_draw_u(d) * log(200.0)) / 100) * 100;
            if (ns <= budget_ns) gl_sched_hostfn(p, 0, st[s], ns);
        } else if (u < 0.88) {
            int dir = u < 0.6 ? GL_SCHED_H2D : u < 0.8 ? GL_SCHED_D2H
                    : gl_draw_u(d) < 0.5 ? GL_SCHED_MEMSET : GL_SCHED_D2D;
            int pageable = dir <= GL_SCHED_D2H && gl_draw_u(d) < 1.0 / 3;
            double bytes = 4096 * floor(exp(gl_draw_u(d) * log(L->copy_max_bytes / 4096)));
            ns = bytes / RECKONED_GBPS[pageable];
            if (ns <= budget_ns) gl_sched_copy(p, 0, st[s], dir, bytes, pageable);
        } else {
            ev = gl_sched_event_new(p);
            gl_sched_record(p, 0, st[(s + gl_draw_int(d, 1, S - 1)) % S], ev);
            gl_sched_wait(p, 0, st[s], ev);
        }
        if (ns <= budget_ns) budget_ns -= ns;
    }
    for (int s = 1; s < S; s++) {
        ev = gl_sched_event_new(p);
        gl_sched_record(p, 0, st[s], ev);
        gl_sched_wait(p, 0, st[0], ev);
    }
    launch(&ps->k, p, st[0], 0, label, ps->kernel_ns);
}

/* Draw program seed's spec into ps (its kind by seed mod 5, or copies under --population copies; S log-uniform in
 * --streams-min..--streams-max, K in 1..--kernels, T log-uniform in random_min_us..--kernel-us; one block of 32..256
 * threads or, one program in six, 2..16 blocks of 64 or 128; T, then K, shrunk until the kernels take at most
 * RANDOM_WORK_NS end to end), then build it into p, and into *edges (op indices) what every run must keep: a DAG's
 * own dependencies, else what its waits and legacy kernels promise (gl_sched_edges). Returns the edge count. */
static int random_program(const program_lab *L, unsigned long long seed, program_spec *ps, gl_sched_program *p,
                          gl_sched_edge **edges)
{
    gl_draws d;
    gl_draws_init(&d, seed, 2000);
    memset(ps, 0, sizeof *ps);
    ps->seed = seed;
    ps->kind = L->population == POP_COPIES ? KIND_COPIES : (int)(seed % N_KINDS);
    ps->streams = gl_draw_log_int(&d, L->streams_min, L->streams_max);
    int K = gl_draw_int(&d, 1, L->kernels);
    ps->phases = gl_draw_int(&d, 2, 3);
    ps->kernels = ps->kind == KIND_LEGACY ? (K / ps->phases > 1 ? K / ps->phases : 1) : K;
    double lo = random_min_us(L->kernel_us) * 1e3, hi = L->kernel_us * 1e3;
    ps->kernel_ns = exp(log(lo) + gl_draw_u(&d) * (log(hi) - log(lo)));
    if (gl_draw_u(&d) < 1.0 / 6) {
        ps->k.blocks = gl_draw_log_int(&d, 2, 16);
        ps->k.threads = gl_draw_u(&d) < 0.5 ? 64 : 128;
    } else {
        ps->k.blocks = 1;
        ps->k.threads = RANDOM_THREADS[gl_draw_int(&d, 0, GL_ARRAY_LEN(RANDOM_THREADS) - 1)];
    }
    ps->k.per_sm = gl_work_blocks_per_sm(ps->k.threads);
    while (ps->kernels > 1 && spec_kernels(ps) > RANDOM_MAX_KERNELS) ps->kernels--;
    ps->kernel_ns = fmax(lo, fmin(ps->kernel_ns, RANDOM_WORK_NS / spec_kernels(ps)));
    while (ps->kernels > 1 && spec_kernels(ps) * ps->kernel_ns > RANDOM_WORK_NS) ps->kernels--;
    ps->kernel_ns = round(ps->kernel_ns / 100) * 100; /* to 0.1 us, the row's kernel_us: the T its kernels ran */

    gl_sched_program_init(p);
    int n_edges = -1;
    switch (ps->kind) {
    case KIND_FAN_IN: build_fan_in(p, &ps->k, ps->streams, ps->kernels, ps->kernel_ns); break;
    case KIND_FAN_OUT: build_fan_out(p, &ps->k, ps->streams, ps->kernels, ps->kernel_ns); break;
    case KIND_CROSS: build_cross(p, ps, &d); break;
    case KIND_LEGACY: build_legacy(p, ps, &d); break;
    case KIND_COPIES: build_copies(p, L, ps, &d); break;
    default: {
        dag g = dag_random(ps->streams, ps->kernels, ps->kernel_ns, ps->seed, 0);
        n_edges = dag_program(&ps->k, &g, p, edges);
        free(g.k);
    }
    }
    /* Host threads, drawn last so that a seed's program is the same with one thread: stream k (from 1) is issued
     * by thread (k - 1) mod T, the legacy stream's ops by thread 0; the run keeps program order across threads
     * where the program depends on it (gl_schedrun.h, gl_sched_run_begin), as a threaded program must. */
    ps->host_threads = L->host_threads > 1 ? gl_draw_int(&d, 1, L->host_threads) : 1;
    if (ps->host_threads > p->n_streams - 1) ps->host_threads = p->n_streams > 1 ? p->n_streams - 1 : 1; /* one a stream */
    if (ps->host_threads > 1) {
        for (int i = 0; i < p->n_ops; i++)
            if (p->ops[i].stream > 0) p->ops[i].thread = (p->ops[i].stream - 1) % ps->host_threads;
        p->n_threads = ps->host_threads;
    }
    return n_edges >= 0 ? n_edges : gl_sched_edges(p, GL_SCHED_EDGE_EVENT | GL_SCHED_EDGE_LEGACY, edges);
}

/* ---- running the programs --------------------------------------------------------------- */

/* Tracks 0..S-1 are a program's streams; track S (ctx) is the legacy stream's. */
static void random_track(int index, gl_buf *out, const void *ctx)
{
    if (index == *(const int *)ctx) gl_buf_puts(out, "legacy stream");
    else gl_buf_printf(out, "stream %d", index);
}

/* One run of a program: sample_program's values, how long the host took to issue it, and its copies' end error. */
static void sample_random(gl_sample *s, void *arg)
{
    run_ctx *x = (run_ctx *)arg;
    gl_sched_run_time_pageable(&x->run); /* its pageable copies at this moment's pace (none: nothing to time) */
    sample_program(s, arg);
    double last = x->run.t0_ns;
    for (int i = 0; i < x->run.prog->n_ops; i++) last = fmax(last, x->run.return_ns[i]);
    gl_sample_put(s, "issue_time", (last - x->run.t0_ns) / 1e6);
    if (x->run.copies > 0) gl_sample_put(s, "copy_end_error", copies_end_error_us(&x->run));
}

/* Run the program of seed --seed + index as a row of table "random" (copies programs: "copies"), with its claims. */
static void random_row(program_lab *L, int index, programs_summary *sum)
{
    program_spec ps;
    gl_sched_program p;
    gl_sched_edge *edges = NULL;
    int n_edges = random_program(L, L->E.common->seed + (unsigned long long)index, &ps, &p, &edges);
    run_ctx x;
    run_open(&x, &L->E, &p, 0);
    x.edges = edges;
    x.n_edges = n_edges;
    int n[GL_SCHED_LOAD + 1] = {0}, legacy = 0, pageable = 0, priorities = 0, blocking = 0; /* n: ops by kind */
    double bytes = 0, largest = 0;
    for (int i = 0; i < p.n_ops; i++) {
        const gl_sched_op *o = &p.ops[i];
        n[o->kind]++;
        legacy += o->kind == GL_SCHED_LAUNCH && o->stream == GL_SCHED_LEGACY;
        if (o->kind != GL_SCHED_COPY) continue;
        pageable += o->pageable;
        bytes += o->bytes;
        largest = fmax(largest, o->bytes);
    }
    for (int s = 1; s < p.n_streams; s++) {
        priorities += p.streams[s].priority != 0;
        blocking += p.streams[s].kind == GL_SCHED_STREAM_BLOCKING;
    }

    const char *kind = ps.kind == KIND_COPIES ? "copies" : kind_name[ps.kind];
    gl_row *row = gl_report_row(&L->E.S.rep, ps.kind == KIND_COPIES ? "copies" : "random", kind);
    gl_row_param(row, "seed", "%llu", ps.seed);
    gl_row_param_num(row, "streams", "", 0, ps.streams);
    gl_row_param_num(row, "kernels", "", 0, n[GL_SCHED_LAUNCH]);
    gl_row_param_num(row, "kernel_us", "", 1, ps.kernel_ns / 1e3);
    gl_row_param_num(row, "blocks", "", 0, ps.k.blocks);
    gl_row_param_num(row, "threads", "", 0, ps.k.threads);
    gl_row_param_num(row, "connections", "", 0, L->E.S.machine.connections);
    if (L->host_threads > 1) gl_row_param_num(row, "host_threads", "", 0, ps.host_threads);
    gl_row_param_num(row, "records", "", 0, n[GL_SCHED_RECORD]);
    gl_row_param_num(row, "waits", "", 0, n[GL_SCHED_WAIT]);
    gl_row_param_num(row, "legacy", "", 0, legacy);
    gl_row_param_num(row, "edges", "", 0, n_edges);
    if (ps.kind == KIND_COPIES) { /* what it copies, its host functions, its streams at a priority and blocking */
        gl_row_param_num(row, "copies", "", 0, n[GL_SCHED_COPY]);
        gl_row_param_num(row, "copy_mib", "", 3, bytes / 1048576);
        gl_row_param_num(row, "largest_mib", "", 3, largest / 1048576);
        gl_row_param_num(row, "pageable", "", 0, pageable);
        gl_row_param_num(row, "hostfns", "", 0, n[GL_SCHED_HOSTFN]);
        gl_row_param_num(row, "priorities", "", 0, priorities);
        gl_row_param_num(row, "blocking", "", 0, blocking);
    }
    gl_sampler smp;
    gl_device_sampler(&smp, &L->E.S.dev, L->E.common);
    gl_sched_run_series(&smp);
    gl_sampler_series(&smp, "issue_time", "ms", 3, GL_HIDE);
    if (x.run.copies > 0) gl_sampler_series(&smp, "copy_end_error", "us", 2, GL_HIDE);
    if (x.run.copies > 0) gl_sampler_series(&smp, "model_makespan_before", "ms", 3, GL_HIDE);
    if (x.run.copies > 0) gl_sampler_series(&smp, "wake", "us", 1, GL_HIDE); /* the driver's thread's, as modelled */
    char name[96], title[128];
    snprintf(name, sizeof name, "random %d (%s, seed %llu)", index, kind, ps.seed);
    /* Each run in a range "random N (...)" of its own, from its first call to its wait: validate-replay
     * replays the range as the program, and the pageable timing before a run (each pageable copy once more: half of
     * random 7's 88 ms) and the readback and clock alignment after it (a cudaHostAlloc of 0.9-1.4 ms and a 146 us
     * kernel) are the harness's. */
    x.run.nvtx_range = name;
    gl_sampler_run(&smp, row, sample_random, &x);
    x.run.nvtx_range = NULL;
    if (ps.kind == KIND_COPIES) { /* the pageable copies' pace as the model took it in the last run */
        double b[2] = {0, 0}, t[2] = {0, 0};
        for (int i = 0; i < p.n_ops; i++)
            if (p.ops[i].kind == GL_SCHED_COPY && p.ops[i].copy_ns > 0)
                b[p.ops[i].dir] += p.ops[i].bytes, t[p.ops[i].dir] += p.ops[i].copy_ns;
        gl_row_number(row, "pageable_h2d", "GB/s", 1, GL_HIDE, t[0] > 0 ? b[0] / t[0] : NAN);
        gl_row_number(row, "pageable_d2h", "GB/s", 1, GL_HIDE, t[1] > 0 ? b[1] / t[1] : NAN);
    }
    program_claims(&L->E, L->tolerance, row, &x, name, kind_edges[ps.kind == KIND_COPIES ? KIND_LEGACY : ps.kind]);
    gl_row_number(row, "edge_checks", "", 0, GL_HIDE, (double)x.checked);
    gl_row_number(row, "edges_held", "", 0, GL_HIDE, (double)x.held);

    summary_add(sum, &L->E, L->tolerance, row, &x, (long long)ps.seed);
    gl_names names = {"n%d", NULL, NULL, NULL, random_track, &ps.streams, 0};
    snprintf(title, sizeof title, "%s C=%d", name, L->E.S.machine.connections);
    run_close(&L->E, &x, title, &names, &smp, edges, &p);
}

int main(int argc, char **argv)
{
    static const gl_experiment exp = {
        "event-programs",
        "does the model predict random multi-stream programs with cross-stream events and the legacy stream, run by "
        "run?",
        "Model: the core's scheduling simulation (gl_sched.h) of each run, issued through gl_schedrun.h; claims: every\n"
        "edge holds, peak concurrency and makespan match the simulation. Program i has seed --seed + i (alone:\n"
        "--programs 1 --seed <its seed>); make validate-model judges them as a population."};
    program_lab L = {{}, 4, 2, MAX_STREAMS, 1000, 0.10, POP_EVENTS, 0, 0, 0, 1};
    int programs = 8;
    double copy_mib = 256;
    gl_option opts[] = {
        {"programs", GL_OPT_INT, &programs, 1, 1000, NULL, "4",
         "random programs (fan-in, fan-out, dag, cross, legacy), program i from seed --seed + i", 0},
        {"population", GL_OPT_CHOICE, &L.population, 0, 0, "events|copies", NULL,
         "events: the five kinds by seed mod 5; copies: copies, host functions and priorities (build_copies)", 0},
        {"streams-min", GL_OPT_INT, &L.streams_min, 2, MAX_STREAMS, NULL, NULL,
         "the fewest streams a program draws (S, log-uniform)", 0},
        {"streams-max", GL_OPT_INT, &L.streams_max, 2, MAX_STREAMS, NULL, "8", "the most streams a program draws", 0},
        {"kernels", GL_OPT_INT, &L.kernels, 1, 64, NULL, NULL, "the most kernels per stream a program draws (K)", 0},
        {"kernel-us", GL_OPT_DOUBLE, &L.kernel_us, 1, 1e6, NULL, "200",
         "the longest work kernel in us (T, drawn log-uniformly from max(this/20, 20) to this)", 0},
        {"copy-mib", GL_OPT_DOUBLE, &copy_mib, 1, 1024, NULL, "16", "copies: the largest copy (MiB; from 4 KiB)", 0},
        {"host-threads", GL_OPT_INT, &L.host_threads, 1, 8, NULL, NULL,
         "the most host threads a program draws (1..this; stream k issued by thread (k-1) mod T)", 0},
        {"tolerance", GL_OPT_DOUBLE, &L.tolerance, 0, 10, NULL, NULL, "relative tolerance of the makespan claims", 0},
    };
    gl_common common;
    gl_common_defaults(&common);
    gl_options_parse_or_exit(&exp, opts, GL_ARRAY_LEN(opts), &common, argc, argv);
    if (L.streams_min > L.streams_max)
        gl_die(GL_EXIT_USAGE, "--streams-min %d is more than --streams-max %d", L.streams_min, L.streams_max);
    if (L.population != POP_COPIES && gl_option_find(opts, GL_ARRAY_LEN(opts), "copy-mib")->given)
        gl_die(GL_EXIT_USAGE, "--copy-mib is for --population copies: the events population draws no copies");
    L.copy_max_bytes = copy_mib * 1048576;
    /* T spans a range: the dispatch gap is measured at its middle (geometric). */
    events_lab_open(&L.E, exp.name, &common, sqrt(random_min_us(L.kernel_us) * L.kernel_us));
    if (L.population == POP_COPIES) {
        copies_machine(&L.E.S.dev, common.quick ? 16u << 20 : 64u << 20, common.quick ? 3 : 5, &L.E.S.machine);
        CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&L.prio_least, &L.prio_greatest));
        printf("setup: %d copies programs from seed %llu: S=%d..%d streams (priorities %d..%d), max(8, 2*S*K) steps "
               "(K=1..%d): kernels of T=%g..%g us, copies of 4 KiB..%g MiB, host functions of 10 us..2 ms; C=%d "
               "connections\n",
               programs, common.seed, L.streams_min, L.streams_max, L.prio_least, L.prio_greatest, L.kernels,
               random_min_us(L.kernel_us), L.kernel_us, copy_mib, L.E.S.machine.connections);
    } else {
        printf("setup: %d random programs from seed %llu (kinds fan-in, fan-out, dag, cross, legacy by seed mod 5): "
               "S=%d..%d streams, K=1..%d, T=%g..%g us, 1 block of 32..256 threads or 2..16 blocks of 64 or 128; "
               "C=%d connections\n",
               programs, common.seed, L.streams_min, L.streams_max, L.kernels, random_min_us(L.kernel_us),
               L.kernel_us, L.E.S.machine.connections);
    }
    /* One row a program, then one line over them: the bounds over a population are validate-model's. */
    programs_summary sum = {};
    for (int i = 0; i < programs; i++) random_row(&L, i, &sum);
    printf("%s: %d programs from seed %llu at C=%d: makespan within %.0f%% of the simulation in %d, peak "
           "concurrency equal in %d, every edge held in every run in %d (worst makespan: seed %llu, %.1f%% off); "
           "make validate-model judges such programs as a population\n",
           L.population == POP_COPIES ? "copies" : "random", sum.programs, common.seed, L.E.S.machine.connections,
           100 * L.tolerance, sum.within, sum.peak_equal, sum.all_held, (unsigned long long)sum.worst_error_at,
           100 * sum.worst_error);
    return gl_sched_lab_close(&L.E.S, &common);
}
