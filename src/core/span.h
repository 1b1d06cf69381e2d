/* span.h - the record a kernel leaves of when and where it ran.
 *
 * A span is written on the device from %globaltimer (nanoseconds, one clock for
 * every SM) and read by the host after it synchronizes. Kernel records are
 * reduced across blocks with atomicMin, so the buffer is initialized to all ones
 * bytes: start_ns == GL_SPAN_EMPTY means "never recorded", and every int field
 * reads -1 until written. The end is stored inverted (~end) so that one
 * atomicMin per block yields the latest end as well as the earliest start. */
#ifndef GL_SPAN_H
#define GL_SPAN_H

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
