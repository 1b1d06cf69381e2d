/* fixtures.h - synthetic spans for the unit tests, shaped as kernels leave them. */
#ifndef GL_TEST_FIXTURES_H
#define GL_TEST_FIXTURES_H

#include <string.h>

#include "gl_timeline.h"

/* A record of kernel id (block -1) or of one of its blocks, absolute times in
 * ns, from an all-ones record as gl_spans_reset leaves it. */
static gl_span test_span(unsigned long long start, unsigned long long end, int label, int stream, int id,
                         int block)
{
    gl_span s;
    memset(&s, 0xFF, sizeof s);
    s.start_ns = start;
    s.end_inv_ns = ~end;
    s.label = label;
    s.stream = stream;
    s.kernel = id;
    s.parent = -1;
    s.blocks = 2;
    s.threads = 64;
    s.smid = 10 + id + (block > 0 ? block : 0);
    s.block = block;
    s.kind = GL_SPAN_KERNEL;
    return s;
}

#endif
