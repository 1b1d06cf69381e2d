/* gl_timeline.h - the span a kernel leaves, reduced to intervals, and the facts a claim needs.
 *
 * Pure C, so that every number a scheduling claim rests on (makespan, busy time,
 * concurrency, ordering, parent-child order) is unit-tested on synthetic spans
 * without a GPU. Everything here is O(n log n) in the number of intervals:
 * nested experiments record 10^5 grids.
 *
 * Host intervals join device spans on one axis through a clock alignment: the
 * offset from the host's monotonic clock to %globaltimer, measured by round
 * trips (gl_clock_align_measure on the CUDA side), with its uncertainty. */
#ifndef GL_TIMELINE_H
#define GL_TIMELINE_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- spans: the record a kernel leaves of when and where it ran -----------------
 * A span is written on the device from %globaltimer (nanoseconds, one clock for
 * every SM) and read by the host after it synchronizes. Kernel records are
 * reduced across blocks with atomicMin, so the buffer is initialized to all ones
 * bytes: start_ns == GL_SPAN_EMPTY means "never recorded", and every int field
 * reads -1 until written. The end is stored inverted (~end) so that one
 * atomicMin per block yields the latest end as well as the earliest start. */
#define GL_SPAN_EMPTY 0xFFFFFFFFFFFFFFFFULL /* start_ns of a record nobody wrote */
#define GL_NO_SPAN 0xFFFFFFFFu              /* slot value meaning "do not record" */

/* What an interval is. A kernel record that was written but whose kind reads
 * -1 (the all-ones initial value) is treated as a kernel. */
typedef enum {
    GL_SPAN_KERNEL = 0, /* a grid: its earliest block start to its latest block end */
    GL_SPAN_COPY = 1,   /* a memory copy or set, timed by the host or by events */
    GL_SPAN_MARKER = 2, /* an instant (start == end) worth showing, e.g. a launch from device code */
    GL_SPAN_HOST = 3    /* a host interval (an API call, a thread's issue loop), on the device clock */
} gl_span_kind;

typedef struct gl_span {
    unsigned long long start_ns;   /* earliest block start, %globaltimer ns */
    unsigned long long end_inv_ns; /* ~(latest block end), so that atomicMin reduces it */
    int label;   /* what the kernel is, an index into the experiment's label names */
    int stream;  /* which track it belongs to: a stream index, or a depth for nested grids */
    int kernel;  /* the record's own slot: a unique id for the kernel */
    int parent;  /* slot of the grid that launched it, -1 when launched by the host */
    int blocks;  /* grid size (gridDim.x) */
    int threads; /* block size (blockDim.x) */
    int smid;    /* SM that ran block 0 (kernel record) or this block (block record) */
    int block;   /* -1 for a kernel record, else the block index of a block record */
    int kind;    /* a gl_span_kind */
} gl_span;

/* The span buffer as kernels see it, passed by value. Records [0, host_slots)
 * are reserved by the host before launching; [host_slots, capacity) are
 * reserved on the device (atomically) by grids that launch children. */
typedef struct gl_span_buf {
    gl_span *spans;          /* device array of capacity records */
    unsigned int host_slots; /* records reserved by the host come first */
    unsigned int capacity;   /* all records */
    unsigned int *next;      /* device counter: records handed out after host_slots */
    unsigned int *overflow;  /* device counter: reservations that did not fit */
    int per_block;           /* also keep one record per block after each kernel record */
} gl_span_buf;

/* End time of a span, undoing the inversion. */
static inline unsigned long long gl_span_end(const gl_span *s) { return ~s->end_inv_ns; }

/* ---- the timeline ----------------------------------------------------------------- */

typedef struct gl_interval {
    double start_ns;  /* relative to the timeline's origin */
    double end_ns;    /* relative to the timeline's origin */
    int kind;         /* a gl_span_kind */
    int label;        /* copied from the span */
    int stream;       /* track index */
    int kernel;       /* unique id (the span slot) */
    int parent;       /* id of the launching grid, -1 for host launches */
    int parent_index; /* index in the timeline of that grid; -1 when none or not recorded */
    int blocks;       /* grid size */
    int threads;      /* block size */
    int smid;         /* SM of block 0 */
} gl_interval;

typedef struct gl_timeline {
    gl_interval *k;               /* intervals, sorted by start time */
    int n;                        /* number of intervals */
    int *by_id;                   /* indices into k, sorted by kernel id: the id lookup */
    unsigned long long origin_ns; /* absolute %globaltimer value of the earliest start of any interval */
    /* The summaries count kernel intervals only (host, copy and marker intervals share the axis). */
    double makespan_ns;           /* latest kernel end minus earliest kernel start */
    double busy_ns;               /* length of the union of the kernel intervals */
    double sum_ns;                /* sum of kernel durations */
    double avg_concurrency;       /* sum_ns / makespan_ns: kernels running, on average */
    int peak_concurrency;         /* most kernels running at one instant (touching ends do not overlap) */
    int n_tracks;                 /* 1 + the largest stream index */
} gl_timeline;

/* Build from spans[0..n-1], keeping the records that were written (block
 * records and empty slots are skipped). Returns the number of intervals, or -1
 * when a record ends before it starts or two records share a kernel id. */
int gl_timeline_build(gl_timeline *tl, const gl_span *spans, int n);
void gl_timeline_free(gl_timeline *tl);

/* Index in tl->k of the interval with this kernel id, or -1. O(log n). */
int gl_timeline_find(const gl_timeline *tl, int id);

/* A set of intervals, chosen by a predicate and its argument. */
typedef int (*gl_filter)(const gl_interval *k, const void *arg);
int gl_filter_label(const gl_interval *k, const void *label);     /* arg: const int * */
int gl_filter_not_label(const gl_interval *k, const void *label); /* arg: const int * */
int gl_filter_stream(const gl_interval *k, const void *stream);   /* arg: const int * */
int gl_filter_kind(const gl_interval *k, const void *kind);       /* arg: const int * */
int gl_filter_all(const gl_interval *k, const void *unused);

/* One track's share of the timeline. */
typedef struct gl_track {
    int stream;            /* the track index */
    int count;             /* intervals on it */
    double first_start_ns; /* earliest start on it */
    double last_end_ns;    /* latest end on it */
    double busy_ns;        /* union of its intervals */
} gl_track;
gl_track gl_timeline_track(const gl_timeline *tl, int stream);

/* The fact "every interval in A started after every interval in B ended". */
typedef struct gl_order {
    int holds;               /* 1 when both sets are non-empty and margin_ns >= -slack_ns */
    int n_a, n_b;            /* sizes of the two sets; an empty set proves nothing */
    double a_first_start_ns; /* earliest start in A */
    double b_last_end_ns;    /* latest end in B */
    double margin_ns;        /* a_first_start_ns - b_last_end_ns */
    double slack_ns;         /* how much overlap is forgiven (timer resolution) */
} gl_order;
gl_order gl_timeline_after(const gl_timeline *tl, gl_filter a, const void *a_arg, gl_filter b,
                           const void *b_arg, double slack_ns);

/* Children (intervals in the set with a recorded parent) that started after
 * their parent ended, within slack_ns. */
typedef struct gl_lineage {
    int pairs;            /* children whose parent is in the timeline */
    int after;            /* of those, started at or after the parent's end - slack */
    int orphans;          /* children whose parent id is not in the timeline */
    double worst_margin_ns; /* smallest child start - parent end over the pairs */
} gl_lineage;
gl_lineage gl_timeline_lineage(const gl_timeline *tl, gl_filter f, const void *arg, double slack_ns);

/* Peak concurrency among the intervals of one set. */
int gl_timeline_peak(const gl_timeline *tl, gl_filter f, const void *arg);

/* The most intervals of the set running at every instant of a stretch of at
 * least min_ns: the peak without overlaps too brief to mean anything (the
 * last blocks of one grid ending while the next grid's first blocks start).
 * With min_ns = 0 it is the peak of touching-excluded overlaps of any length. */
int gl_timeline_peak_lasting(const gl_timeline *tl, gl_filter f, const void *arg, double min_ns);

/* ---- host and device clocks on one axis --------------------------------------- */

typedef struct gl_clock_align {
    double offset_ns;      /* %globaltimer ns minus host monotonic ns */
    double uncertainty_ns; /* half the shortest round trip: the true offset is within +/- this */
    int rounds;            /* round trips measured */
    int valid;             /* 0 until measured */
} gl_clock_align;

/* The alignment from n round trips: the host read its clock at host_before[i]
 * and host_after[i] around the device reading device_ns[i]. The shortest trip
 * bounds the offset most tightly, so it is the one used. */
gl_clock_align gl_clock_align_from(const double *host_before, const double *host_after,
                                   const unsigned long long *device_ns, int n);

/* A host interval (host monotonic ns) as a span on the device clock. */
gl_span gl_host_span(const gl_clock_align *a, double host_start_ns, double host_end_ns, int label, int track,
                     int id);

#ifdef __cplusplus
}
#endif
#endif
