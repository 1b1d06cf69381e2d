/* test_timeline.c - timeline analysis on synthetic spans. */
#include <string.h>

#include "fixtures.h"
#include "harness.h"
#include "timeline.h"


int main(void)
{
    const unsigned long long base = 5000000000ULL;
    gl_span sp[8];
    sp[0] = test_span(base + 100, base + 300, 0, 0, 0, -1);
    sp[1] = test_span(base + 300, base + 500, 1, 0, 1, -1); /* touches sp[0]: not overlapping */
    sp[2] = test_span(base + 150, base + 250, 0, 1, 2, -1);
    sp[3] = test_span(base + 900, base + 1000, 2, 2, 3, -1); /* after a gap */
    memset(&sp[4], 0xFF, sizeof sp[4]);            /* an empty slot */
    sp[5] = test_span(base + 120, base + 130, 0, 0, 0, -1);
    sp[5].block = 0;                               /* a block record: not a kernel */
    gl_timeline tl;
    int n = gl_timeline_build(&tl, sp, 6);
    test_cond("empty slots and block records are skipped", n == 4 && tl.n == 4);
    test_cond("times are relative to the earliest start", tl.origin_ns == base + 100 && tl.k[0].start_ns == 0);
    test_cond("kernels are sorted by start", tl.k[1].kernel == 2 && tl.k[2].kernel == 1 && tl.k[3].kernel == 3);
    test_cond("makespan is last end minus first start", tl.makespan_ns == 900);
    test_cond("busy time is the union and leaves out gaps", tl.busy_ns == 400 + 100);
    test_cond("sum of durations", tl.sum_ns == 200 + 200 + 100 + 100);
    test_cond("peak concurrency counts true overlap only", tl.peak_concurrency == 2);
    test_cond("average concurrency is sum over makespan", tl.avg_concurrency == 600.0 / 900.0);
    test_cond("tracks: 1 + the largest stream index", tl.n_tracks == 3);

    gl_track t0 = gl_timeline_track(&tl, 0);
    test_cond("a stream's track: count, first start, last end, busy",
              t0.count == 2 && t0.first_start_ns == 0 && t0.last_end_ns == 400 && t0.busy_ns == 400);
    gl_track t9 = gl_timeline_track(&tl, 9);
    test_cond("an unused stream has an empty track", t9.count == 0 && t9.busy_ns == 0);

    int two = 2, zero = 0;
    gl_order o = gl_timeline_after(&tl, gl_filter_label, &two, gl_filter_not_label, &two, 0);
    test_cond("ordering holds: label 2 starts after all others end",
              o.holds && o.n_a == 1 && o.n_b == 3 && o.margin_ns == 800 - 400);
    o = gl_timeline_after(&tl, gl_filter_label, &zero, gl_filter_not_label, &zero, 0);
    test_cond("ordering fails when A starts before B ends, with a negative margin", !o.holds && o.margin_ns < 0);
    int one = 1;
    o = gl_timeline_after(&tl, gl_filter_label, &one, gl_filter_label, &zero, 0);
    test_cond("touching intervals satisfy 'after' (start == end)", o.holds && o.margin_ns == 0);
    o = gl_timeline_after(&tl, gl_filter_label, &one, gl_filter_stream, &one, 0);
    test_cond("ordering across different selectors (label vs stream)", o.holds && o.margin_ns == 200 - 150);
    int nine = 9;
    o = gl_timeline_after(&tl, gl_filter_label, &nine, gl_filter_all, NULL, 1e9);
    test_cond("an empty set never proves an ordering", !o.holds && o.n_a == 0);
    o = gl_timeline_after(&tl, gl_filter_stream, &one, gl_filter_stream, &zero, 349);
    test_cond("350 ns too early fails with 349 ns of slack", !o.holds && o.margin_ns == 50 - 400);
    o = gl_timeline_after(&tl, gl_filter_stream, &one, gl_filter_stream, &zero, 350);
    test_cond("350 ns too early passes with 350 ns of slack", o.holds);
    test_cond("peak of a subset", gl_timeline_peak(&tl, gl_filter_label, &zero) == 2 &&
                                      gl_timeline_peak(&tl, gl_filter_stream, &zero) == 1);
    gl_timeline_free(&tl);

    /* The false-dependency staircase with one queue: S=3 streams, K=3 kernels
     * of 1000 ns; each stream's first kernel overlaps the previous stream's last. */
    gl_span st[9];
    int id = 0;
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < 3; k++, id++) {
            unsigned long long start = base + (unsigned long long)(s * 2 + k) * 1000;
            st[id] = test_span(start, start + 1000, k, s, id, -1);
        }
    gl_timeline_build(&tl, st, 9);
    test_cond("staircase makespan is (S*(K-1)+1)*T", tl.makespan_ns == (3 * 2 + 1) * 1000);
    test_cond("staircase peak concurrency is 2", tl.peak_concurrency == 2);
    gl_timeline_free(&tl);

    gl_span bad = test_span(base + 10, base + 5, 0, 0, 0, -1);
    test_cond("a span that ends before it starts is rejected", gl_timeline_build(&tl, &bad, 1) == -1);

    test_cond("no spans: an empty timeline", gl_timeline_build(&tl, NULL, 0) == 0 && tl.makespan_ns == 0 &&
                                                 tl.peak_concurrency == 0);
    gl_timeline_free(&tl);
    test_report();
}
