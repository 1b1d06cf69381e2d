/* test_timeline.c - timeline analysis on synthetic spans: concurrency,
 * ordering, lineage, id lookup at scale, and host/device clock alignment. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"
#include "gl_timeline.h"


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

    /* A tree: grid 10 launches 20 and 30; 30 launches 40; 50 names a parent that was not recorded. */
    gl_span tree[5] = {
        test_span(base + 0, base + 100, 0, 0, 10, -1), test_span(base + 100, base + 150, 1, 1, 20, -1),
        test_span(base + 90, base + 200, 1, 1, 30, -1), test_span(base + 250, base + 300, 2, 2, 40, -1),
        test_span(base + 10, base + 20, 1, 1, 50, -1),
    };
    tree[1].parent = 10;
    tree[2].parent = 10;
    tree[3].parent = 30;
    tree[4].parent = 99;
    gl_timeline_build(&tl, tree, 5);
    int i30 = gl_timeline_find(&tl, 30);
    test_cond("an id is found wherever the start order put it", i30 >= 0 && tl.k[i30].kernel == 30 &&
                                                                   gl_timeline_find(&tl, 31) == -1);
    test_cond("a child's parent index points at its parent",
              tl.k[gl_timeline_find(&tl, 40)].parent_index == i30 && tl.k[gl_timeline_find(&tl, 10)].parent_index == -1);
    gl_lineage l = gl_timeline_lineage(&tl, gl_filter_all, NULL, 0);
    test_cond("lineage counts pairs, those after the parent, and orphans",
              l.pairs == 3 && l.after == 2 && l.orphans == 1 && l.worst_margin_ns == -10);
    l = gl_timeline_lineage(&tl, gl_filter_all, NULL, 10);
    test_cond("lineage forgives overlap within the slack", l.after == 3);
    int two_label = 2;
    l = gl_timeline_lineage(&tl, gl_filter_label, &two_label, 0);
    test_cond("lineage of a subset", l.pairs == 1 && l.after == 1 && l.worst_margin_ns == 50);
    gl_timeline_free(&tl);

    /* 10^5 grids, each the child of the one before, ids shuffled against start order. */
    enum { BIG = 100000 };
    gl_span *big = (gl_span *)malloc(sizeof(gl_span) * BIG);
    for (int i = 0; i < BIG; i++) {
        int id = (int)(((long long)i * 7919) % BIG); /* 7919 is prime to 10^5: a permutation */
        big[i] = test_span(base + 10ULL * i, base + 10ULL * i + 5, 0, 0, id, -1);
        big[i].parent = i ? (int)(((long long)(i - 1) * 7919) % BIG) : -1;
    }
    test_cond("10^5 grids build", gl_timeline_build(&tl, big, BIG) == BIG);
    l = gl_timeline_lineage(&tl, gl_filter_all, NULL, 0);
    test_cond("every one of 10^5 children finds its parent", l.pairs == BIG - 1 && l.after == BIG - 1 && l.orphans == 0);
    gl_timeline_free(&tl);
    free(big);

    /* A span whose kind was never written (-1) is a kernel; other kinds are kept. */
    gl_span kinds[2] = {test_span(base, base + 10, 0, 0, 0, -1), test_span(base, base + 10, 0, 0, 1, -1)};
    kinds[0].kind = -1;
    kinds[1].kind = GL_SPAN_COPY;
    gl_timeline_build(&tl, kinds, 2);
    int copy = GL_SPAN_COPY;
    test_cond("an unwritten kind reads as a kernel, a copy stays a copy",
              tl.k[0].kind == GL_SPAN_KERNEL && tl.k[1].kind == GL_SPAN_COPY &&
                  gl_timeline_peak(&tl, gl_filter_kind, &copy) == 1);
    gl_timeline_free(&tl);

    /* Host intervals share the axis but are not kernels: the summaries ignore them. */
    gl_span mixed[3] = {test_span(base + 100, base + 200, 0, 0, 0, -1), test_span(base + 150, base + 300, 0, 1, 1, -1),
                        test_span(base + 0, base + 1000, 1, 2, 2, -1)};
    mixed[2].kind = GL_SPAN_HOST;
    gl_timeline_build(&tl, mixed, 3);
    test_cond("the axis starts at the earliest interval of any kind", tl.origin_ns == base);
    test_cond("makespan, peak and busy time count kernels only",
              tl.makespan_ns == 200 && tl.peak_concurrency == 2 && tl.busy_ns == 200 && tl.sum_ns == 250);
    gl_timeline_free(&tl);
    gl_span twins[2] = {test_span(base, base + 10, 0, 0, 7, -1), test_span(base + 20, base + 30, 0, 0, 7, -1)};
    test_cond("two records with one id are refused: the lookup would be a guess", gl_timeline_build(&tl, twins, 2) == -1);

    /* Clock alignment: the device clock is the host's + 1e9 ns; trips of 4000,
     * 600 and 2000 ns, the device reading in each trip's true middle + skew. */
    double before[3] = {1000, 10000, 20000}, after[3] = {5000, 10600, 22000};
    unsigned long long dev[3] = {1000000000ULL + 3000, 1000000000ULL + 10300 + 100, 1000000000ULL + 21000};
    gl_clock_align a = gl_clock_align_from(before, after, dev, 3);
    test_cond("the shortest round trip sets the offset and its uncertainty",
              a.valid && a.rounds == 3 && a.uncertainty_ns == 300 && a.offset_ns == 1e9 + 100);
    test_cond("the true offset is within the uncertainty", fabs(a.offset_ns - 1e9) <= a.uncertainty_ns);
    gl_clock_align none = gl_clock_align_from(before, after, dev, 0);
    test_cond("no round trips: no alignment", !none.valid);
    gl_span h = gl_host_span(&a, 50000, 51000, 3, 7, 42);
    test_cond("a host interval lands on the device clock as a host span",
              h.start_ns == 1000050100ULL && gl_span_end(&h) == 1000051100ULL && h.kind == GL_SPAN_HOST &&
                  h.stream == 7 && h.kernel == 42 && h.block == -1);
    {
        /* Three intervals: two overlap for 500 ns, the third touches the first for 10 ns only. */
        gl_span q[3];
        q[0] = test_span(base + 0, base + 1000, 0, 0, 0, -1);
        q[1] = test_span(base + 500, base + 2000, 0, 1, 1, -1);
        q[2] = test_span(base + 990, base + 3000, 0, 2, 2, -1);
        gl_timeline t3;
        gl_timeline_build(&t3, q, 3);
        test_cond("lasting peak: 3 at once for 10 ns counts at 0 ns and not at 100 ns",
                  gl_timeline_peak_lasting(&t3, gl_filter_all, NULL, 0) == 3 &&
                      gl_timeline_peak_lasting(&t3, gl_filter_all, NULL, 100) == 2);
        test_cond("lasting peak: at least 2 at once from 500 to 2000 holds at 1500 ns, not at 1600 ns",
                  gl_timeline_peak_lasting(&t3, gl_filter_all, NULL, 1500) == 2 &&
                      gl_timeline_peak_lasting(&t3, gl_filter_all, NULL, 1600) == 1);
        test_cond("lasting peak: longer than any interval gives 0",
                  gl_timeline_peak_lasting(&t3, gl_filter_all, NULL, 5000) == 0);
        gl_timeline_free(&t3);
    }
    test_report();
}
