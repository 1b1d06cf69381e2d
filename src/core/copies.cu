/* copies.cu - the copy engines measured (gl_copies.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_copies.h"
#include "gl_errors.h"
#include "gl_spans.h"
#include "gl_stats.h"

/* Buffers for one direction's copies: the destination and the source of each of two copies at once. */
typedef struct copy_bufs {
    void *pinned[2], *pageable[2], *device[2], *device2[2]; /* each large_bytes */
    cudaStream_t s[2];
    cudaEvent_t start, end[2];
} copy_bufs;

static const enum cudaMemcpyKind kinds[3] = {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                                        cudaMemcpyDeviceToDevice};

/* Copy i of direction d (a memset: of device buffer i), bytes long, from the pinned or pageable host buffer,
 * queued on stream k. */
static void queue_copy(copy_bufs *b, int d, int i, int pageable, size_t bytes, int k)
{
    if (d == GL_SCHED_MEMSET) {
        CUDA_CHECK(cudaMemsetAsync(b->device[i], 0, bytes, b->s[k]));
        return;
    }
    void *host = pageable ? b->pageable[i] : b->pinned[i];
    void *dst = d == GL_SCHED_H2D ? b->device[i] : d == GL_SCHED_D2H ? host : b->device2[i];
    void *src = d == GL_SCHED_H2D ? host : b->device[i];
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kinds[d], b->s[k]));
}

/* One timed round: copies dirs[0..n-1] (n 1 or 2, on streams 0 and 1) start together after the start event;
 * returns the time from the start to the last end (ns); *call_ns: the host's time in the first call; ends
 * (when not NULL): each copy's end. */
static double round_ns(copy_bufs *b, const int *dirs, int n, int pageable, size_t bytes, double *call_ns,
                       double *ends = NULL)
{
    CUDA_CHECK(cudaEventRecord(b->start, b->s[0]));
    if (n > 1) CUDA_CHECK(cudaStreamWaitEvent(b->s[1], b->start, 0));
    for (int k = 0; k < n; k++) {
        double t0 = gl_host_ns();
        queue_copy(b, dirs[k], k, pageable, bytes, k);
        if (k == 0 && call_ns) *call_ns = gl_host_ns() - t0;
        CUDA_CHECK(cudaEventRecord(b->end[k], b->s[k]));
    }
    double worst = 0;
    for (int k = 0; k < n; k++) {
        CUDA_CHECK(cudaEventSynchronize(b->end[k]));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, b->start, b->end[k]));
        if (ms * 1e6 > worst) worst = ms * 1e6;
        if (ends) ends[k] = ms * 1e6;
    }
    return worst;
}

/* The median over reps rounds (one untimed first), and the median host call time. */
static double median_ns(copy_bufs *b, const int *dirs, int n, int pageable, size_t bytes, int reps, double *call_ns)
{
    double *t = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    double *c = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    round_ns(b, dirs, n, pageable, bytes, NULL, NULL); /* warm-up: first-touch of pageable pages, the engines' first use */
    for (int r = 0; r < reps; r++) t[r] = round_ns(b, dirs, n, pageable, bytes, &c[r], NULL);
    double med = gl_stats_of(t, reps).median;
    if (call_ns) *call_ns = gl_stats_of(c, reps).median;
    free(t);
    free(c);
    return med;
}

/* One stream, from an event to an event around: a kernel holding it for hold_ns, then (order 1) or before it
 * (order -1) a small copy of direction d, or (order 0) no copy; the median of reps (ns). */
static double chain_ns(copy_bufs *b, int d, int order, double hold_ns, size_t bytes, int reps)
{
    double *t = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    for (int r = -1; r < reps; r++) { /* r = -1: untimed */
        CUDA_CHECK(cudaEventRecord(b->start, b->s[0]));
        if (order < 0) queue_copy(b, d, 0, 0, bytes, 0);
        gl_hold_launch(b->s[0], hold_ns, NULL);
        if (order > 0) queue_copy(b, d, 0, 0, bytes, 0);
        CUDA_CHECK(cudaEventRecord(b->end[0], b->s[0]));
        CUDA_CHECK(cudaEventSynchronize(b->end[0]));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, b->start, b->end[0]));
        if (r >= 0) t[r] = ms * 1e6;
    }
    double med = gl_stats_of(t, reps).median;
    free(t);
    return med;
}

/* A small copy of direction d in stream 1, behind one in stream 0 that waits for a kernel holding stream 0
 * for hold_ns: from the kernel's start to stream 1's copy's end (ns), the median of reps. */
static double behind_ns(copy_bufs *b, int d, double hold_ns, int reps)
{
    double *t = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    for (int r = 0; r < reps; r++) {
        CUDA_CHECK(cudaEventRecord(b->start, b->s[0]));
        gl_hold_launch(b->s[0], hold_ns, NULL);
        queue_copy(b, d, 0, 0, 4096, 0);
        queue_copy(b, d, 1, 0, 4096, 1);
        CUDA_CHECK(cudaEventRecord(b->end[1], b->s[1]));
        CUDA_CHECK(cudaDeviceSynchronize());
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, b->start, b->end[1]));
        t[r] = ms * 1e6;
    }
    double med = gl_stats_of(t, reps).median;
    free(t);
    return med;
}

/* The host's time in a pageable H2D call of bytes queued behind a kernel holding the stream for hold_ns (ns, the
 * median of reps): well under hold_ns when the driver staged it all and returned before copying. */
static double stage_call_ns(copy_bufs *b, size_t bytes, double hold_ns, int reps)
{
    double *t = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    for (int r = 0; r < reps; r++) {
        gl_hold_launch(b->s[0], hold_ns, NULL);
        double t0 = gl_host_ns();
        queue_copy(b, GL_SCHED_H2D, 0, 1, bytes, 0);
        t[r] = gl_host_ns() - t0;
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    double med = gl_stats_of(t, reps).median;
    free(t);
    return med;
}

void gl_copy_calibrate(const gl_device *dev, size_t small_bytes, size_t large_bytes, int reps, gl_copy_machine *m)
{
    memset(m, 0, sizeof *m);
    if (reps < 1) reps = 1;
    CUDA_CHECK(cudaDeviceGetAttribute(&m->async_engines, cudaDevAttrAsyncEngineCount, dev->id));
    gl_sched_copy_times *t = &m->t;
    t->small_bytes = (double)small_bytes, t->large_bytes = (double)large_bytes;
    copy_bufs b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaMallocHost(&b.pinned[i], large_bytes));
        b.pageable[i] = gl_xmalloc(large_bytes);
        memset(b.pinned[i], 1, large_bytes), memset(b.pageable[i], 1, large_bytes); /* pages present */
        CUDA_CHECK(cudaMalloc(&b.device[i], large_bytes));
        CUDA_CHECK(cudaMalloc(&b.device2[i], large_bytes));
        CUDA_CHECK(cudaMemset(b.device[i], 0, large_bytes));
        CUDA_CHECK(cudaStreamCreateWithFlags(&b.s[i], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreate(&b.end[i]));
    }
    CUDA_CHECK(cudaEventCreate(&b.start));
    for (int d = 0; d < GL_SCHED_DIRS; d++) {
        const int pair[2] = {d, d};
        t->small_ns[d] = median_ns(&b, &d, 1, 0, small_bytes, reps, NULL);
        t->large_ns[d] = median_ns(&b, &d, 1, 0, large_bytes, reps, d < 2 ? &m->pinned_call_ns[d] : NULL);
        t->pair_ns[d] = median_ns(&b, pair, 2, 0, large_bytes, reps, NULL);
    }
    /* The curve: 4 KiB, 16 KiB, ... up to the large size, each direction alone. */
    for (size_t bytes = 4096; bytes <= large_bytes && t->n_points < GL_SCHED_COPY_POINTS; bytes *= 4) {
        t->point_bytes[t->n_points] = (double)bytes;
        for (int d = 0; d < GL_SCHED_DIRS; d++) t->point_ns[d][t->n_points] = median_ns(&b, &d, 1, 0, bytes, reps, NULL);
        t->n_points++;
    }
    const int opposite[2] = {GL_SCHED_H2D, GL_SCHED_D2H};
    double *ends[2] = {(double *)gl_xcalloc((size_t)reps, sizeof(double)), (double *)gl_xcalloc((size_t)reps, sizeof(double))};
    for (int r = -1; r < reps; r++) { /* r = -1: untimed */
        double e[2];
        round_ns(&b, opposite, 2, 0, large_bytes, NULL, e);
        if (r >= 0) ends[0][r] = e[0], ends[1][r] = e[1];
    }
    for (int d = 0; d < 2; d++) t->opposite_ns[d] = gl_stats_of(ends[d], reps).median;
    /* The same at 512 KiB (a segment of a few MiB cut N ways), where sharing costs far more per byte. */
    t->opposite_small_bytes = (double)(large_bytes < (512u << 10) ? large_bytes : (512u << 10));
    for (int r = -1; r < reps; r++) {
        double e[2];
        round_ns(&b, opposite, 2, 0, (size_t)t->opposite_small_bytes, NULL, e);
        if (r >= 0) ends[0][r] = e[0], ends[1][r] = e[1];
    }
    for (int d = 0; d < 2; d++) {
        t->opposite_small_ns[d] = gl_stats_of(ends[d], reps).median;
        free(ends[d]);
    }
    /* What a dependency between a copy and a kernel in one stream costs beyond each alone: [kernel, copy] and
     * [copy, kernel] against [kernel] and the copy alone (a 50 us kernel, the small copy). */
    double chain = chain_ns(&b, 0, 0, 5e4, small_bytes, reps);
    for (int d = 0; d < 2; d++) {
        t->after_kernel_ns[d] = chain_ns(&b, d, 1, 5e4, small_bytes, reps) - chain - t->small_ns[d];
        t->before_kernel_ns[d] = chain_ns(&b, d, -1, 5e4, small_bytes, reps) - chain - t->small_ns[d];
    }
    t->hold_ns = 2e6; /* long beside any copy below, short enough to repeat */
    for (int d = 0; d < 2; d++) t->behind_ns[d] = behind_ns(&b, d, t->hold_ns, reps);
    for (size_t bytes = 256 << 10; bytes <= large_bytes && t->n_stage < GL_ARRAY_LEN(t->stage_bytes); bytes *= 2) {
        t->stage_bytes[t->n_stage] = (double)bytes;
        t->stage_call_ns[t->n_stage++] = stage_call_ns(&b, bytes, t->hold_ns, reps);
    }
    for (int d = 0; d < 2; d++) {
        t->pageable_ns[d] = median_ns(&b, &d, 1, 1, large_bytes, reps, &m->pageable_call_ns[d]);
        t->pageable_small_ns[d] = median_ns(&b, &d, 1, 1, small_bytes, reps, NULL);
    }
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaFreeHost(b.pinned[i]));
        free(b.pageable[i]);
        CUDA_CHECK(cudaFree(b.device[i]));
        CUDA_CHECK(cudaFree(b.device2[i]));
        CUDA_CHECK(cudaStreamDestroy(b.s[i]));
        CUDA_CHECK(cudaEventDestroy(b.end[i]));
    }
    CUDA_CHECK(cudaEventDestroy(b.start));
    m->fitted = gl_sched_machine_default();
    gl_sched_copy_fit(t, &m->fitted, m->fit_error, sizeof m->fit_error);
}

double gl_copy_time_ns(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, cudaStream_t s, int reps)
{
    if (reps < 1) reps = 1;
    double *t = (double *)gl_xcalloc((size_t)reps, sizeof(double));
    cudaEvent_t e[2];
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaEventCreate(&e[i]));
    for (int r = -1; r < reps; r++) { /* r = -1: untimed */
        CUDA_CHECK(cudaEventRecord(e[0], s));
        CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));
        CUDA_CHECK(cudaEventRecord(e[1], s));
        CUDA_CHECK(cudaEventSynchronize(e[1]));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e[0], e[1]));
        if (r >= 0) t[r] = ms * 1e6;
    }
    double med = gl_stats_of(t, reps).median;
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaEventDestroy(e[i]));
    free(t);
    return med;
}

int gl_copy_machine_apply(const gl_copy_machine *cm, gl_sched_machine *m)
{
    const gl_sched_machine *f = &cm->fitted;
    memcpy(m->copy_engines, f->copy_engines, sizeof m->copy_engines);
    memcpy(m->copy_gbps, f->copy_gbps, sizeof m->copy_gbps);
    memcpy(m->copy_latency_ns, f->copy_latency_ns, sizeof m->copy_latency_ns);
    memcpy(m->pageable_gbps, f->pageable_gbps, sizeof m->pageable_gbps);
    memcpy(m->pageable_latency_ns, f->pageable_latency_ns, sizeof m->pageable_latency_ns);
    memcpy(m->copy_bidir_gbps, f->copy_bidir_gbps, sizeof m->copy_bidir_gbps);
    memcpy(m->copy_bidir_latency_ns, f->copy_bidir_latency_ns, sizeof m->copy_bidir_latency_ns);
    memcpy(m->copy_after_kernel_ns, f->copy_after_kernel_ns, sizeof m->copy_after_kernel_ns);
    memcpy(m->kernel_after_copy_ns, f->kernel_after_copy_ns, sizeof m->kernel_after_copy_ns);
    memcpy(m->copy_in_order, f->copy_in_order, sizeof m->copy_in_order);
    m->pageable_stage_bytes = f->pageable_stage_bytes;
    m->pageable_stage_call_ns = f->pageable_stage_call_ns;
    m->pageable_inline_bytes = f->pageable_inline_bytes;
    m->sm_copy_share = f->sm_copy_share;
    m->pageable_piece_ns = f->pageable_piece_ns;
    m->pageable_d2h_serial = f->pageable_d2h_serial;
    m->pageable_d2h_handover_ns = f->pageable_d2h_handover_ns;
    m->pageable_stage_slots = f->pageable_stage_slots;
    m->sm_memset_bytes = f->sm_memset_bytes;
    m->copy_points = f->copy_points;
    memcpy(m->copy_point_bytes, f->copy_point_bytes, sizeof m->copy_point_bytes);
    memcpy(m->copy_point_ns, f->copy_point_ns, sizeof m->copy_point_ns);
    return f->copy_engines[0] > 0 ? 0 : -1;
}

void gl_copy_print(const gl_copy_machine *m)
{
    static const char *const names[GL_SCHED_DIRS] = {"H2D", "D2H", "D2D", "memset"};
    const gl_sched_copy_times *t = &m->t;
    const gl_sched_machine *f = &m->fitted;
    printf("copies: %d async engines |", m->async_engines);
    for (int d = 0; d < GL_SCHED_DIRS; d++)
        printf(" %s %.0f B %.2f us, %.0f MiB %.1f us, two at once %.1f us |", names[d], t->small_bytes,
               t->small_ns[d] / 1e3, t->large_bytes / 1048576.0, t->large_ns[d] / 1e3, t->pair_ns[d] / 1e3);
    printf(" H2D+D2H at once: H2D ends %.1f us, D2H %.1f us (%.0f KiB: %.1f, %.1f us) | pageable H2D %.1f us (call %.1f us, pinned %.1f), D2H "
           "%.1f us (call %.1f us, pinned %.1f) | behind a copy held %.0f us: H2D %.1f us, D2H %.1f us | pageable H2D "
           "calls behind the hold:", t->opposite_ns[0] / 1e3, t->opposite_ns[1] / 1e3, t->opposite_small_bytes / 1024,
           t->opposite_small_ns[0] / 1e3, t->opposite_small_ns[1] / 1e3, t->pageable_ns[0] / 1e3,
           m->pageable_call_ns[0] / 1e3, m->pinned_call_ns[0] / 1e3, t->pageable_ns[1] / 1e3,
           m->pageable_call_ns[1] / 1e3, m->pinned_call_ns[1] / 1e3, t->hold_ns / 1e3, t->behind_ns[0] / 1e3,
           t->behind_ns[1] / 1e3);
    for (int i = 0; i < t->n_stage; i++) printf(" %.0f KiB %.0f us", t->stage_bytes[i] / 1024, t->stage_call_ns[i] / 1e3);
    printf(" | beyond each alone, [kernel, copy] H2D %.1f us, D2H %.1f; [copy, kernel] %.1f, %.1f", t->after_kernel_ns[0] / 1e3,
           t->after_kernel_ns[1] / 1e3, t->before_kernel_ns[0] / 1e3, t->before_kernel_ns[1] / 1e3);
    printf(" | H2D, D2H alone:");
    for (int i = 0; i < t->n_points; i++)
        printf(" %.0f KiB %.1f/%.1f us", t->point_bytes[i] / 1024, t->point_ns[0][i] / 1e3, t->point_ns[1][i] / 1e3);
    printf(" | medians, measured now\n");
    if (f->copy_engines[0] == 0) {
        printf("copy model: not fitted: %s\n", m->fit_error);
        return;
    }
    if (m->fit_error[0]) printf("copy model: fitted but for %s\n", m->fit_error);
    printf("copy model:");
    for (int d = 0; d < GL_SCHED_DIRS; d++)
        printf(" %s %d engine%s, %.1f GB/s + %.2f us%s |", names[d], f->copy_engines[d], f->copy_engines[d] > 1 ? "s" : "",
               f->copy_gbps[d], f->copy_latency_ns[d] / 1e3, d < 2 && f->copy_in_order[d] ? ", in order" : "");
    printf(" both ways at once H2D %.1f GB/s + %.2f us, D2H %.1f GB/s + %.2f us | pageable H2D %.1f GB/s + %.1f us, "
           "D2H %.1f GB/s + %.1f us, staged up to %.0f KiB (calls up to %.0f us) | a kernel to its stream's H2D %.1f us, D2H %.1f us; an "
           "H2D to its kernel %.1f us, a D2H %.1f us\n", f->copy_bidir_gbps[0], f->copy_bidir_latency_ns[0] / 1e3,
           f->copy_bidir_gbps[1], f->copy_bidir_latency_ns[1] / 1e3, f->pageable_gbps[0],
           f->pageable_latency_ns[0] / 1e3, f->pageable_gbps[1], f->pageable_latency_ns[1] / 1e3,
           f->pageable_stage_bytes / 1024, f->pageable_stage_call_ns / 1e3, f->copy_after_kernel_ns[0] / 1e3,
           f->copy_after_kernel_ns[1] / 1e3, f->kernel_after_copy_ns[0] / 1e3, f->kernel_after_copy_ns[1] / 1e3);
}
