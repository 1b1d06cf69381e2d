/* timeline.h - reduce device spans to kernel intervals and the facts a claim needs.
 *
 * Pure C, so that every number a scheduling claim rests on (makespan, busy time,
 * concurrency, ordering) is unit-tested on synthetic spans without a GPU. */
#ifndef GL_TIMELINE_H
#define GL_TIMELINE_H

#include "span.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_interval {
    double start_ns; /* relative to the timeline's origin */
    double end_ns;   /* relative to the timeline's origin */
    int label;       /* copied from the span */
    int stream;      /* track index */
    int kernel;      /* unique id (the span slot) */
    int parent;      /* id of the launching grid, -1 for host launches */
    int blocks;      /* grid size */
    int threads;     /* block size */
    int smid;        /* SM of block 0 */
} gl_interval;

typedef struct gl_timeline {
    gl_interval *k;             /* kernel intervals, sorted by start time */
    int n;                      /* number of kernels */
    unsigned long long origin_ns; /* absolute %globaltimer value of the earliest start */
    double makespan_ns;         /* latest end minus earliest start */
    double busy_ns;             /* length of the union of all intervals */
    double sum_ns;              /* sum of all kernel durations */
    double avg_concurrency;     /* sum_ns / makespan_ns: kernels running, on average */
    int peak_concurrency;       /* most kernels running at one instant (touching ends do not overlap) */
    int n_tracks;               /* 1 + the largest stream index */
} gl_timeline;

/* Build from spans[0..n-1], keeping kernel records that were written (block
 * records and empty slots are skipped). Returns the number of kernels, or -1
 * if a record ends before it starts or memory runs out. */
int gl_timeline_build(gl_timeline *tl, const gl_span *spans, int n);
void gl_timeline_free(gl_timeline *tl);

/* A set of kernels, chosen by a predicate and its argument. */
typedef int (*gl_filter)(const gl_interval *k, const void *arg);
int gl_filter_label(const gl_interval *k, const void *label);        /* arg: const int * */
int gl_filter_not_label(const gl_interval *k, const void *label);    /* arg: const int * */
int gl_filter_stream(const gl_interval *k, const void *stream);      /* arg: const int * */
int gl_filter_all(const gl_interval *k, const void *unused);

/* One stream's share of the timeline. */
typedef struct gl_track {
    int stream;            /* the track index */
    int count;             /* kernels on it */
    double first_start_ns; /* earliest start on it */
    double last_end_ns;    /* latest end on it */
    double busy_ns;        /* union of its intervals */
} gl_track;
gl_track gl_timeline_track(const gl_timeline *tl, int stream);

/* The fact "every kernel in A started after every kernel in B ended". */
typedef struct gl_order {
    int holds;             /* 1 when margin_ns >= -slack_ns and both sets are non-empty */
    int n_a, n_b;          /* sizes of the two sets */
    double a_first_start_ns; /* earliest start in A */
    double b_last_end_ns;    /* latest end in B */
    double margin_ns;        /* a_first_start_ns - b_last_end_ns */
} gl_order;
gl_order gl_timeline_after(const gl_timeline *tl, gl_filter a, const void *a_arg, gl_filter b,
                           const void *b_arg, double slack_ns);

/* Peak concurrency among the kernels of one set. */
int gl_timeline_peak(const gl_timeline *tl, gl_filter f, const void *arg);

#ifdef __cplusplus
}
#endif
#endif
