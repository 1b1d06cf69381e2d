/* test_trace.c - Chrome trace export (checked with Python's json) and the text timeline. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"
#include "trace.h"

static int run(const char *cmd)
{
    int rc = system(cmd);
    return rc == -1 ? -1 : (rc >> 8) & 0xff;
}


int main(void)
{
    /* Two kernels of two blocks each: kernel record, then its block records. */
    gl_span sp[6] = {
        test_span(1000, 3000, 0, 0, 0, -1), test_span(1000, 2900, 0, 0, 0, 0), test_span(1100, 3000, 0, 0, 0, 1),
        test_span(2000, 4000, 1, 1, 3, -1), test_span(2000, 4000, 1, 1, 3, 0), test_span(2050, 3900, 1, 1, 3, 1),
    };
    gl_timeline tl;
    gl_timeline_build(&tl, sp, 6);
    static const char *labels[] = {"k0 \"first\"", "k1\\second"};
    gl_names names = {labels, 2, "stream"};
    gl_trace tr;
    gl_trace_init(&tr);
    test_cond("a run is added", gl_trace_add(&tr, "order=depth", &tl, sp, 6, &names) == 0);
    test_cond("a second run is added", gl_trace_add(&tr, "order=breadth", &tl, sp, 6, &names) == 0);
    test_cond("the trace is written", gl_trace_write(&tr, "test_trace.json") == 0);
    test_cond("the trace parses: 4 slices, 2 runs, named tracks, one SM per block",
              run("python3 tests/validate.py trace test_trace.json --events 4 --runs 2 "
                  "--tracks 'stream 0,stream 1' --block-sms") == 0);
    test_cond("slice times are microseconds from the run's first start, names escaped",
              run("python3 -c \"import json,sys; e=[x for x in json.load(open('test_trace.json'))['traceEvents'] "
                  "if x['ph']=='X' and x['pid']==1]; a=e[0]; b=e[1];"
                  "sys.exit(not (a['ts']==0 and a['dur']==2.0 and a['name']=='k0 \\\"first\\\"' and "
                  "b['ts']==1.0 and b['tid']==1 and b['name']=='k1\\\\second' and a['args']['block_sms']==[10,11] and "
                  "a['args']['blocks']==2))\"") == 0);
    test_cond("writing to a missing folder fails", gl_trace_write(&tr, "/nonexistent-dir/t.json") == -1);
    gl_trace_free(&tr);

    gl_trace empty;
    gl_trace_init(&empty);
    test_cond("an empty trace is still valid JSON",
              gl_trace_write(&empty, "test_trace.json") == 0 &&
                  run("python3 tests/validate.py trace test_trace.json --events 0 --runs 0") == 0);
    remove("test_trace.json");

    FILE *f = tmpfile();
    gl_timeline_draw(f, "demo", &tl, &names, 30);
    rewind(f);
    char out[2048];
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    test_cond("the text timeline has a title line with the makespan", strstr(out, "timeline: demo  (0 .. 0.003 ms") != NULL);
    test_cond("one row per stream, kernels drawn with their letter",
              strstr(out, "stream   0 |AAAAAAAAAAAAAAAAAAAA..........|") &&
                  strstr(out, "stream   1 |..........BBBBBBBBBBBBBBBBBBBB|"));
    test_cond("the legend names the labels", strstr(out, "A=k0 \"first\"") != NULL);
    gl_timeline_free(&tl);

    /* A kernel shorter than a column still shows, in lower case. */
    gl_span tiny[2] = {test_span(0, 100000, 0, 0, 0, -1), test_span(50000, 50010, 1, 1, 1, -1)};
    gl_timeline_build(&tl, tiny, 2);
    f = tmpfile();
    gl_timeline_draw(f, "tiny", &tl, &names, 10);
    rewind(f);
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    test_cond("a kernel shorter than a column is drawn where it starts", strstr(out, "stream   1 |.....b....|") != NULL);
    gl_timeline_free(&tl);
    test_report();
}
