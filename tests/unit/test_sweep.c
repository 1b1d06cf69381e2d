/* test_sweep.c - re-executing once per environment value, and merging the
 * children's JSON reports. The test binary is its own child: with --child it
 * writes a small report for the value in GL_TEST_VALUE. */
#include "testutil.h"

#include "harness.h"
#include "gl_output.h"
#include "gl_report.h"
#include "gl_sweep.h"

/* The child: one row for the value; value 3 fails its claim, 5 exits as a CUDA
 * error would, 77 as a machine without a GPU. */
static int child(int argc, char **argv)
{
    const char *json = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--json") == 0) json = argv[i + 1];
    for (int i = 1; i < argc; i++) /* the sweep must not pass its own options on */
        if (strncmp(argv[i], "--value", 7) == 0 || strncmp(argv[i], "--csv", 5) == 0 || strncmp(argv[i], "--trace", 7) == 0 ||
            strncmp(argv[i], "--json=", 7) == 0)
            return 2;
    int value = atoi(getenv("GL_TEST_VALUE") ? getenv("GL_TEST_VALUE") : "0");
    if (value == 5) return 3;
    if (value == 77) {
        fprintf(stderr, "no suitable GPU: the test child has none\n");
        return 77;
    }
    gl_common common;
    gl_common_defaults(&common);
    common.json_path = json;
    gl_report r;
    gl_report_init(&r, "sweep-child", &common);
    gl_report_device(&r, "env_value", "%d", value);
    gl_row *row = gl_report_row(&r, "t", "v");
    gl_row_stats(row, "time", "ms", 2, GL_SHOW_NOISE, gl_stats_of((double[]){1.0 * value, 2.0 * value}, 2));
    gl_row_work(row, "time", 1e6 * value, 0);
    gl_claim_near(&r, row, GL_CLAIM_TIMING, "value is not 3", 0, value == 3 ? 1 : 0, 0, 0.5, "");
    gl_claim_fact(&r, NULL, GL_CLAIM_ORDERING, 1, "run claim", "value %d", value);
    return gl_report_finish(&r);
}

/* How many times needle occurs in text. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static int validate_json(const char *path, const char *e1, const char *e2)
{
    char *argv[] = {(char *)"python3", (char *)"tests/check_outputs.py", (char *)"json", (char *)path, (char *)"--expect",
                    (char *)e1, (char *)"--expect", (char *)e2, NULL};
    return run_argv(argv);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0) return child(argc, argv);

    gl_common common;
    gl_common_defaults(&common);
    char merged[256], csv[256];
    temp_path(merged, sizeof merged, ".json");
    temp_path(csv, sizeof csv, ".csv");
    common.json_path = merged;
    common.csv_path = csv;
    char *args[] = {argv[0], (char *)"--child", (char *)"--value", (char *)"1,2,3", (char *)"--json", (char *)"x.json",
                    NULL};
    char *eq_args[] = {argv[0], (char *)"--child", (char *)"--value=1,2", (char *)"--csv=x.csv", (char *)"--trace=t.json",
                       (char *)"--json=x.json", NULL};

    int values[] = {1, 2, 3};
    capture_begin();
    int rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", values, 3);
    capture_end();
    test_cond("a sweep in which one child fails a claim exits 1", rc == GL_EXIT_CHECK);
    test_cond("each child ran, with the value in its environment", strstr(captured, "== sweep 3 of 3: GL_TEST_VALUE=3") != NULL);
    test_cond("the merged report prints one table of all the children's rows",
              strstr(captured, "merged report:") && strstr(captured, "| variant | time ms | time noise % | bandwidth GB/s |"));
    const char *merged_part = strstr(captured, "merged report:");
    test_cond("claims are not printed again by the merge", merged_part && strstr(merged_part, "CLAIM") == NULL);
    test_cond("the merged JSON has every child's row, each tagged with its value",
              validate_json(merged, "rows.2.params.value.value=3", "rows.0.params.value.value=1") == 0);
    test_cond("merged rows keep their own device fields and statistics",
              validate_json(merged, "rows.1.device.env_value=2", "rows.1.values.time.median=3") == 0);
    test_cond("merged rows keep their claims and verdicts",
              validate_json(merged, "rows.2.claims.0.verdict=FAIL", "rows.0.verdict=PASS") == 0);
    test_cond("run claims of every child are kept",
              validate_json(merged, "run_claims.2.evidence=value 3", "verdict=FAIL") == 0);
    test_cond("declared work survives, so bandwidth is derived for merged rows",
              validate_json(merged, "rows.0.values.bandwidth.value=0.6666666666666666", "rows.0.work.bytes=1000000") == 0);
    char *csv_args[] = {(char *)"python3", (char *)"tests/check_outputs.py", (char *)"csv", csv, (char *)"--rows", (char *)"3",
                        (char *)"--columns", (char *)"device_env_value,value,time_median_ms", NULL};
    test_cond("the merged CSV has the three rows", run_argv(csv_args) == 0);

    int failing[] = {1, 5, 2};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", failing, 3);
    capture_end();
    test_cond("a child's CUDA error (3) is the sweep's exit code, and the rest still run",
              rc == GL_EXIT_CUDA && strstr(captured, "GL_TEST_VALUE=5 exited 3") &&
                  validate_json(merged, "rows.1.params.value.value=2", "rows.0.params.value.value=1") == 0);

    int two[] = {1, 2};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, eq_args, &common, "GL_TEST_VALUE", "value", two, 2);
    capture_end();
    test_cond("options given as --opt=value are taken off the children's command line too",
              rc == GL_EXIT_OK && validate_json(merged, "rows.1.params.value.value=2", "verdict=PASS") == 0);

    int no_gpu[] = {77, 1};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", no_gpu, 2);
    capture_end();
    test_cond("a value without a suitable GPU (77) stops the sweep, which exits 77",
              rc == GL_EXIT_NO_GPU && strstr(captured, "== sweep 2 of 2") == NULL);
    test_cond("the stop is said once, naming the value and the values not run",
              count_of(captured, "exited 77") == 1 &&
                  strstr(captured, "the run with GL_TEST_VALUE=77 exited 77, skipped for the reason above; the sweep stops "
                                   "there (not run: GL_TEST_VALUE=1)"));

    int all_77[] = {77, 77, 77};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", all_77, 3);
    capture_end();
    test_cond("when no value can run, the sweep exits 77 after the first, saying so once",
              rc == GL_EXIT_NO_GPU && count_of(captured, "== sweep") == 1 && count_of(captured, "exited 77") == 1 &&
                  count_of(captured, "no suitable GPU") == 1);

    int ran_then_77[] = {1, 77, 2};
    remove(merged);
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", ran_then_77, 3);
    capture_end();
    char *one_row[] = {(char *)"python3", (char *)"tests/check_outputs.py", (char *)"report", merged, (char *)"--rows",
                       (char *)"1", NULL};
    test_cond("values before the stop are still merged and reported; the sweep exits 77",
              rc == GL_EXIT_NO_GPU && strstr(captured, "stopped at GL_TEST_VALUE=77: 1 of 3 values merged") &&
                  strstr(captured, "GL_TEST_VALUE=2") && run_argv(one_row) == 0 &&
                  validate_json(merged, "rows.0.params.value.value=1", "verdict=PASS") == 0);
    test_cond("a value after the stop is never run", strstr(captured, "== sweep 3 of 3") == NULL);

    int fail_then_77[] = {3, 77};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", fail_then_77, 2);
    capture_end();
    test_cond("a later 77 never hides an earlier failed claim: the sweep exits 1", rc == GL_EXIT_CHECK);

    int error_then_77[] = {5, 77, 1};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", error_then_77, 3);
    capture_end();
    test_cond("a later 77 never hides an earlier error: the sweep exits 3, and still stops",
              rc == GL_EXIT_CUDA && strstr(captured, "== sweep 3 of 3") == NULL);

    common.json_path = NULL; /* the note must not depend on the files */
    int no_gpu_last[] = {1, 77};
    capture_begin();
    rc = gl_sweep_env("sweep-child", 6, args, &common, "GL_TEST_VALUE", "value", no_gpu_last, 2);
    capture_end();
    common.json_path = merged;
    test_cond("a stop at the last value names no values as not run",
              rc == GL_EXIT_NO_GPU && strstr(captured, "the sweep stops there\n") != NULL);

    gl_report r;
    gl_report_init(&r, "x", &common);
    char err[512];
    FILE *f = fopen(csv, "w");
    fputs("{\"rows\":[{\"table\":\"t\"", f);
    fclose(f);
    test_cond("a truncated report is refused with the file and the place",
              gl_report_merge_json(&r, csv, err, sizeof err) == -1 && strstr(err, csv) && strstr(err, "line 1"));
    gl_report_free(&r);

    gl_buf p = GL_BUF_INIT;
    gl_sweep_path("out/run.trace.json", 4, &p);
    test_cond("a per-value path puts the value before the extension", strcmp(gl_buf_str(&p), "out/run.trace-4.json") == 0);
    p.len = 0;
    gl_sweep_path("dir.d/run", 16, &p);
    test_cond("a path without an extension gets the value at the end", strcmp(gl_buf_str(&p), "dir.d/run-16") == 0);
    gl_buf_free(&p);
    remove(merged);
    remove(csv);
    test_report();
}
