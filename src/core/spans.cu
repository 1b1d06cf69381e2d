/* spans.cu - the host side of the span buffer, and the work kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_errors.h"
#include "gl_spans.h"
#include "gl_work.cuh"

void gl_spans_create(gl_spans *s, unsigned int host_slots, unsigned int device_slots, int per_block)
{
    memset(s, 0, sizeof *s);
    if ((unsigned long long)host_slots + device_slots > 0x7FFFFFFFull)
        gl_die(GL_EXIT_INTERNAL, "span buffer of %u + %u records is beyond the 2^31 the timeline can index", host_slots,
               device_slots);
    s->dev.host_slots = host_slots;
    s->dev.capacity = host_slots + device_slots;
    s->dev.per_block = per_block;
    CUDA_CHECK(cudaMalloc((void **)&s->dev.spans, sizeof(gl_span) * (size_t)s->dev.capacity));
    CUDA_CHECK(cudaMalloc((void **)&s->dev.next, 2 * sizeof(unsigned int)));
    s->dev.overflow = s->dev.next + 1;
    s->h_spans = (gl_span *)gl_xmalloc(sizeof(gl_span) * (size_t)s->dev.capacity);
    gl_spans_reset(s);
}

void gl_spans_reset(gl_spans *s)
{
    /* All ones: start_ns reads GL_SPAN_EMPTY, the inverted end reads "no end
     * yet", and every int field reads -1 until a kernel writes it. */
    CUDA_CHECK(cudaMemset(s->dev.spans, 0xFF, sizeof(gl_span) * (size_t)s->dev.capacity));
    CUDA_CHECK(cudaMemset(s->dev.next, 0, 2 * sizeof(unsigned int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    s->host_next = 0;
}

unsigned int gl_spans_reserve(gl_spans *s, int blocks)
{
    unsigned int need = 1u + (s->dev.per_block ? (unsigned int)blocks : 0u);
    if ((unsigned long long)s->host_next + need > s->dev.host_slots)
        gl_die(GL_EXIT_INTERNAL, "span buffer too small: %u host records reserved, %u more needed (a bug of the experiment)",
               s->dev.host_slots, need);
    unsigned int slot = s->host_next;
    s->host_next += need;
    return slot;
}

int gl_spans_fetch(gl_spans *s)
{
    unsigned int counters[2];
    CUDA_CHECK(cudaMemcpy(counters, s->dev.next, sizeof counters, cudaMemcpyDeviceToHost));
    if (counters[1] != 0)
        gl_die(GL_EXIT_INTERNAL,
               "span buffer too small: %u device-side reservations did not fit in %u records (a bug of the experiment)",
               counters[1], s->dev.capacity - s->dev.host_slots);
    unsigned long long n = (unsigned long long)s->dev.host_slots + counters[0];
    if (n > s->dev.capacity) n = s->dev.capacity;
    CUDA_CHECK(cudaMemcpy(s->h_spans, s->dev.spans, sizeof(gl_span) * (size_t)n, cudaMemcpyDeviceToHost));
    return (int)n;
}

int gl_spans_timeline(gl_spans *s, gl_timeline *tl)
{
    int n = gl_spans_fetch(s);
    gl_timeline_free(tl);
    if (gl_timeline_build(tl, s->h_spans, n) < 0) gl_die(GL_EXIT_INTERNAL, "a span ends before it starts: corrupt spans");
    return n;
}

void gl_spans_destroy(gl_spans *s)
{
    CUDA_CHECK(cudaFree(s->dev.spans));
    CUDA_CHECK(cudaFree(s->dev.next));
    free(s->h_spans);
    memset(s, 0, sizeof *s);
}

/* The host-launched work kernel: the shared body, with no parent. */
__global__ void gl_work_kernel(unsigned long long spin_ns, gl_span_buf spans, unsigned int slot, int label,
                               int stream, unsigned long long *d_sink)
{
    gl_work_body(spin_ns, spans, slot, label, stream, -1, d_sink);
}

/* gl_hold_launch's kernel. */
__global__ void gl_hold(double ns, unsigned long long *end)
{
    unsigned long long t0 = gl_globaltimer();
    while ((double)(gl_globaltimer() - t0) < ns) {
    }
    if (end) *end = gl_globaltimer();
}

void gl_hold_launch(cudaStream_t stream, double ns, unsigned long long *end)
{
    gl_hold<<<1, 1, 0, stream>>>(ns, end);
    CUDA_CHECK_LAUNCH("gl_hold");
}

void gl_work_launch(cudaStream_t stream, int blocks, int threads, double us, gl_span_buf spans,
                    unsigned int slot, int label, int stream_index, unsigned long long *d_sink)
{
    unsigned long long spin_ns = (unsigned long long)(us * 1000.0 + 0.5);
    gl_work_kernel<<<blocks, threads, 0, stream>>>(spin_ns, spans, slot, label, stream_index, d_sink);
    CUDA_CHECK_LAUNCH("gl_work_kernel");
}

int gl_work_blocks_per_sm(int threads)
{
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gl_work_kernel, threads, 0));
    return per_sm;
}
