/* null-stream.cuh - what default-stream and implicit-sync share: which stream stream 0 is in this build, to
 * the CUDA runtime and to the scheduling model.
 *
 * Each is built a second time with --default-stream per-thread and DS_PER_THREAD_BUILD=1 (the Makefile's
 * variants default-stream-per-thread and implicit-sync-per-thread): there stream 0, and the calls that take
 * no stream, mean the calling thread's per-thread stream. The core, built with the legacy default stream,
 * reads 0 as the legacy stream, so schedrun launches into this build's stream 0 through cudaStreamPerThread,
 * the same stream (null_stream_row checks it). TODO(core): a launch hook in gl_sched_run, so that these
 * launches pass a literal 0 from the experiment. */
#ifndef GL_STREAMS_NULL_STREAM_CUH
#define GL_STREAMS_NULL_STREAM_CUH

#include <string.h>

#include "events.cuh"

/* DS_PER_THREAD_BUILD left undefined reads as 0. */
#if DS_PER_THREAD_BUILD != defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#error "a per-thread build (DS_PER_THREAD_BUILD=1) needs --default-stream per-thread, and only it may have that"
#endif
#if DS_PER_THREAD_BUILD
#define DS_BUILD "per-thread"                   /* which default stream stream 0 is */
#define DS_NULL_KIND GL_SCHED_STREAM_PER_THREAD /* stream 0 in the scheduling model */
#else
#define DS_BUILD "legacy"
#define DS_NULL_KIND GL_SCHED_STREAM_LEGACY
#endif

/* A program stream for a NULL-stream op of this kind: the legacy stream, or thread 0's per-thread stream. */
static inline int null_stream(gl_sched_program *p, int kind)
{
    return kind == GL_SCHED_STREAM_LEGACY ? GL_SCHED_LEGACY : gl_sched_stream_new(p, kind, 0, 0);
}

/* A row and a claim: stream 0 is the legacy stream, or in a per-thread build the per-thread stream. */
static inline void null_stream_row(gl_report *rep)
{
    unsigned long long id0 = 0, legacy = 0, per_thread = 0;
    CUDA_CHECK(cudaStreamGetId(0, &id0));
    CUDA_CHECK(cudaStreamGetId(cudaStreamLegacy, &legacy));
    CUDA_CHECK(cudaStreamGetId(cudaStreamPerThread, &per_thread));
    const char *is = id0 == legacy ? "legacy" : id0 == per_thread ? "per-thread" : "neither";
    gl_row *row = gl_report_row(rep, "null-stream", DS_BUILD);
    gl_row_param(row, "build", "%s", DS_BUILD);
    gl_row_text(row, "stream_0_is", 0, "%s", is);
    gl_claim_fact(rep, row, GL_CLAIM_ORDERING, strcmp(is, DS_BUILD) == 0 && legacy != per_thread,
                  "in the " DS_BUILD " build, stream 0 is the " DS_BUILD " default stream",
                  "cudaStreamGetId: stream 0 -> %llu, cudaStreamLegacy -> %llu, cudaStreamPerThread -> %llu", id0,
                  legacy, per_thread);
}

#endif
