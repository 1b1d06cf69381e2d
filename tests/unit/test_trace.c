/* test_trace.c - names from patterns and callbacks, the Chrome trace (checked
 * with Python's json through tests/check_outputs.py), and the text timeline. */
#include "testutil.h"

#include "fixtures.h"
#include "harness.h"
#include "gl_trace.h"

static int validate(const char *path, const char *a1, const char *a2, const char *a3, const char *a4, const char *a5,
                    const char *a6)
{
    char *argv[] = {(char *)"python3", (char *)"tests/check_outputs.py", (char *)"trace", (char *)path, (char *)a1,
                    (char *)a2,        (char *)a3,                  (char *)a4,      (char *)a5,   (char *)a6, NULL};
    return run_argv(argv);
}

static int expect_json(const char *path, const char *e1, const char *e2)
{
    char *argv[] = {(char *)"python3", (char *)"tests/check_outputs.py", (char *)"json", (char *)path, (char *)"--expect",
                    (char *)e1, (char *)"--expect", (char *)e2, NULL};
    return run_argv(argv);
}

/* Names with characters JSON must escape. */
static void odd_names(int label, gl_buf *out, const void *ctx)
{
    (void)ctx;
    gl_buf_puts(out, label == 0 ? "k0 \"first\"" : "k1\\second");
}

static void draw(const gl_timeline *tl, const gl_names *names, int width, char *out, size_t n)
{
    FILE *f = tmpfile();
    gl_timeline_draw(f, "demo", tl, names, width);
    rewind(f);
    size_t got = fread(out, 1, n - 1, f);
    out[got] = '\0';
    fclose(f);
}

static void bad_pattern(void *unused)
{
    (void)unused;
    gl_names n = {"k%s", NULL, NULL, NULL, NULL, NULL, 0};
    gl_buf b = GL_BUF_INIT;
    gl_label_name(&n, 1, &b);
}

int main(void)
{
    gl_buf b = GL_BUF_INIT;
    test_cond("a pattern with one %d is usable", gl_name_pattern_ok("k%d") && gl_name_pattern_ok("100%% of stream %i"));
    test_cond("patterns with no, two or other conversions are refused",
              !gl_name_pattern_ok("k") && !gl_name_pattern_ok("%d.%d") && !gl_name_pattern_ok("%s") &&
                  !gl_name_pattern_ok("%5d") && !gl_name_pattern_ok(NULL));
    gl_names pat = {"k%d", NULL, NULL, "stream %d", NULL, NULL, 0};
    gl_label_name(&pat, 63, &b);
    test_cond("a label pattern names label 63", strcmp(gl_buf_str(&b), "k63") == 0);
    b.len = 0;
    gl_track_name(&pat, 1000, &b);
    test_cond("a track pattern names track 1000", strcmp(gl_buf_str(&b), "stream 1000") == 0);
    b.len = 0;
    gl_label_name(NULL, 5, &b);
    test_cond("without names, a label is 'label N'", strcmp(gl_buf_str(&b), "label 5") == 0);
    gl_buf_free(&b);
    test_cond("a bad pattern is a bug that exits 6", exit_code_of(bad_pattern, NULL) == GL_EXIT_INTERNAL);

    /* Two kernels of two blocks each, and a child of the first. */
    gl_span sp[7] = {
        test_span(1000, 3000, 0, 0, 0, -1), test_span(1000, 2900, 0, 0, 0, 0), test_span(1100, 3000, 0, 0, 0, 1),
        test_span(2000, 4000, 1, 1, 3, -1), test_span(2000, 4000, 1, 1, 3, 0), test_span(2050, 3900, 1, 1, 3, 1),
        test_span(3500, 3600, 1, 2, 9, -1),
    };
    sp[6].parent = 0;
    gl_timeline tl;
    gl_timeline_build(&tl, sp, 7);
    gl_names names = {NULL, odd_names, NULL, "stream %d", NULL, NULL, 2};
    gl_trace tr;
    gl_trace_init(&tr);
    gl_trace_add(&tr, "order=depth", &tl, sp, 7, &names);
    gl_trace_add(&tr, "order=breadth", &tl, sp, 7, &names);
    char path[256];
    temp_path(path, sizeof path, ".json");
    test_cond("the trace is written", gl_trace_write(&tr, path) == 0);
    test_cond("the trace parses: 6 slices, 2 runs, named tracks, one flow per child",
              validate(path, "--events", "6", "--runs", "2", "--tracks", "stream 0,stream 1,stream 2") == 0 &&
                  validate(path, "--flows", "2", "--events", "6", "--runs", "2") == 0);
    test_cond("slices are microseconds from the run's first start, with escaped names",
              expect_json(path, "traceEvents.8.ts=0", "traceEvents.8.name=k0 \"first\"") == 0 &&
                  expect_json(path, "traceEvents.8.dur=2", "traceEvents.9.name=k1\\second") == 0);
    test_cond("a kernel lists the SM of each block",
              expect_json(path, "traceEvents.8.args.block_sms.0=10", "traceEvents.8.args.block_sms.1=11") == 0);
    test_cond("the child's flow starts inside its parent's slice and ends at the child",
              expect_json(path, "traceEvents.11.ph=s", "traceEvents.11.ts=1.999") == 0 &&
                  expect_json(path, "traceEvents.12.ph=f", "traceEvents.12.ts=2.5") == 0);
    test_cond("writing to a missing folder fails", gl_trace_write(&tr, "/nonexistent-dir/t.json") == -1);
    gl_trace_free(&tr);

    /* Three grids of one depth, two of them overlapping: slices on one trace
     * thread must nest, so the overlapping one gets a lane of its own. */
    gl_span depth[3] = {test_span(0, 1000, 0, 1, 0, -1), test_span(500, 1500, 1, 1, 1, -1),
                        test_span(1200, 1300, 2, 1, 2, -1)};
    gl_timeline lanes;
    gl_timeline_build(&lanes, depth, 3);
    gl_names dn = {"g%d", NULL, NULL, "depth %d", NULL, NULL, 0};
    gl_trace lt;
    gl_trace_init(&lt);
    gl_trace_add(&lt, "lanes", &lanes, depth, 3, &dn);
    test_cond("overlapping grids of one track go to separate lanes, reused when free",
              gl_trace_write(&lt, path) == 0 &&
                  validate(path, "--tracks", "depth 0,depth 1,depth 1 #1", "--events", "3", NULL, NULL) == 0 &&
                  expect_json(path, "traceEvents.8.tid=1", "traceEvents.9.tid=2") == 0 &&
                  expect_json(path, "traceEvents.10.tid=1", "traceEvents.10.name=g2") == 0);
    gl_trace_free(&lt);
    gl_timeline_free(&lanes);

    gl_trace empty;
    gl_trace_init(&empty);
    test_cond("an empty trace is still valid JSON",
              gl_trace_write(&empty, path) == 0 && validate(path, "--events", "0", "--runs", "0", NULL, NULL) == 0);
    gl_trace_free(&empty);
    remove(path);

    char out[8192];
    draw(&tl, &names, 30, out, sizeof out);
    test_cond("the text timeline has a title line with the makespan", strstr(out, "timeline: demo  (0 .. 0.003 ms") != NULL);
    test_cond("one row per track, kernels drawn with their letter",
              strstr(out, "    stream 0 |AAAAAAAAAAAAAAAAAAAA..........|") &&
                  strstr(out, "    stream 1 |..........BBBBBBBBBBBBBBBBBBBB|"));
    test_cond("the legend names the labels", strstr(out, "A=k0 \"first\" B=k1\\second;") != NULL);
    gl_timeline_free(&tl);

    /* A kernel shorter than a column still shows, in lower case. */
    gl_span tiny[2] = {test_span(0, 100000, 0, 0, 0, -1), test_span(50000, 50010, 1, 1, 1, -1)};
    gl_timeline_build(&tl, tiny, 2);
    draw(&tl, &names, 10, out, sizeof out);
    test_cond("a kernel shorter than a column is drawn where it starts", strstr(out, "stream 1 |.....b....|") != NULL);
    gl_timeline_free(&tl);

    /* 64 labels: letters repeat, and the legend lists every label of a letter. */
    gl_span many[64];
    for (int i = 0; i < 64; i++) many[i] = test_span(1000ULL * i, 1000ULL * i + 1000, i, 0, i, -1);
    gl_timeline_build(&tl, many, 64);
    gl_names k = {"k%d", NULL, NULL, "stream %d", NULL, NULL, 64};
    draw(&tl, &k, 64, out, sizeof out);
    test_cond("label 26 is drawn as A again, and label 63 as L",
              strstr(out, "|ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKL|") != NULL);
    test_cond("the legend lists all 64 labels by letter", strstr(out, " A=k0/k26/k52 ") && strstr(out, " L=k11/k37/k63 ") &&
                                                             strstr(out, " Z=k25/k51;"));
    gl_timeline_free(&tl);
    test_report();
}
