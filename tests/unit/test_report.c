/* test_report.c - claims, checks, exit codes, and the JSON/CSV/table writers. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gl_common.h"
#include "harness.h"
#include "report.h"

/* Run the command and return its exit status (the validator is Python). */
static int run(const char *cmd)
{
    int rc = system(cmd);
    return rc == -1 ? -1 : (rc >> 8) & 0xff;
}

/* Capture what a claim prints: stdout goes to a temporary file meanwhile. */
static char captured[4096];
static int saved_stdout = -1;
static FILE *capture_file;
static void capture_begin(void)
{
    fflush(stdout);
    capture_file = tmpfile();
    saved_stdout = dup(1);
    dup2(fileno(capture_file), 1);
}
static void capture_end(void)
{
    fflush(stdout);
    dup2(saved_stdout, 1);
    close(saved_stdout);
    rewind(capture_file);
    size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
    captured[n] = '\0';
    fclose(capture_file);
}

int main(void)
{
    gl_common common;
    gl_common_defaults(&common);
    gl_report r;
    gl_report_init(&r, "demo", &common);

    capture_begin();
    gl_verdict v = gl_claim_near(&r, 1, "makespan is 4 ms", 4.0, 4.5, 0.15, 0.0, "ms");
    capture_end();
    test_cond("within tolerance passes", v == GL_PASS);
    test_cond("the claim line has text, verdict and evidence",
              strncmp(captured, "CLAIM makespan is 4 ms: PASS (predicted 4 ms, measured 4.5 ms (+12.5%)", 70) == 0);

    capture_begin();
    gl_verdict outside = gl_claim_near(&r, 1, "x", 4.0, 4.61, 0.15, 0.0, "ms");
    gl_verdict slack = gl_claim_near(&r, 1, "x", 4.0, 4.61, 0.15, 0.02, "ms");
    gl_verdict below = gl_claim_near(&r, 1, "x", 4.0, 3.39, 0.15, 0, "ms");
    gl_verdict nan = gl_claim_near(&r, 1, "x", 4.0, NAN, 0.15, 1e9, "ms");
    gl_verdict at_limit = gl_claim_at_most(&r, 1, "cost", 2.0, 2.0, "us");
    gl_verdict above = gl_claim_at_most(&r, 1, "cost", 2.01, 2.0, "us");
    gl_verdict fact = gl_claim_fact(&r, 0, 1, "ordered", "margin %d ns", 5);
    capture_end();
    test_cond("just outside the tolerance fails", outside == GL_FAIL);
    test_cond("absolute slack widens the tolerance", slack == GL_PASS);
    test_cond("below the prediction fails symmetrically", below == GL_FAIL);
    test_cond("a NaN measurement fails", nan == GL_FAIL);
    test_cond("at-most passes at the limit", at_limit == GL_PASS);
    test_cond("at-most fails above the limit", above == GL_FAIL);
    test_cond("a fact that holds passes", fact == GL_PASS);
    test_cond("the fact's evidence is formatted", strstr(captured, "CLAIM ordered: PASS (margin 5 ns)") != NULL);
    capture_begin();
    int exit_code = gl_report_finish(&r);
    capture_end();
    test_cond("any failed claim makes the exit code 1", exit_code == GL_EXIT_CHECK);
    test_cond("the verdict line counts claims", strstr(captured, "verdict: FAIL (claims: 4 passed, 4 failed") != NULL);

    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_claim_fact(&r, 0, 1, "a", "e");
    gl_check(&r, 1, "sum matches the CPU reference");
    exit_code = gl_report_finish(&r);
    capture_end();
    test_cond("all passing gives exit code 0", exit_code == GL_EXIT_OK);
    test_cond("a check prints its line", strstr(captured, "CHECK sum matches the CPU reference: PASS") != NULL);

    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_check(&r, 0, "histogram matches");
    exit_code = gl_report_finish(&r);
    capture_end();
    test_cond("a failed data check gives exit code 1", exit_code == GL_EXIT_CHECK);

    common.skip_timing_claims = 1;
    gl_report_init(&r, "demo", &common);
    capture_begin();
    v = gl_claim_near(&r, 1, "timing", 4.0, 40.0, 0.15, 0, "ms");
    gl_verdict v2 = gl_claim_fact(&r, 0, 0, "ordering", "broken");
    exit_code = gl_report_finish(&r);
    capture_end();
    test_cond("--skip-timing-claims turns a failing timing claim into SKIP", v == GL_SKIP);
    test_cond("--skip-timing-claims never skips a non-timing claim", v2 == GL_FAIL && exit_code == GL_EXIT_CHECK);
    test_cond("a skipped claim says why", strstr(captured, "SKIP (") && strstr(captured, "--skip-timing-claims"));

    /* Rows, and the files written from them. */
    common.skip_timing_claims = 0;
    common.json_path = "test_report.json";
    common.csv_path = "test_report.csv";
    gl_report_init(&r, "demo \"quoted\"", &common);
    gl_report_device(&r, "name", "GPU, with a comma");
    gl_report_device(&r, "cc", "9.0");
    double xs[] = {1.0, 2.0, 3.0};
    capture_begin();
    gl_claim_fact(&r, 0, 1, "a run-level claim", "before any row");
    gl_row *row = gl_report_row(&r, "depth");
    gl_row_param(row, "streams", "%d", 16);
    gl_row_param(row, "model", "(ceil(16/1)*(4-1)+1)*1000 us");
    gl_row_metric(row, "makespan", "ms", gl_stats_of(xs, 3));
    gl_claim_near(&r, 1, "depth, \"quoted\"\nclaim", 2.0, 2.0, 0.15, 0, "ms");
    row = gl_report_row(&r, "breadth");
    gl_row_param(row, "streams", "%d", 16);
    gl_row_param(row, "extra", "only here");
    gl_row_metric(row, "makespan", "ms", gl_stats_of(xs, 3));
    gl_claim_near(&r, 1, "breadth", 2.0, 9.0, 0.15, 0, "ms");
    exit_code = gl_report_finish(&r);
    capture_end();
    test_cond("the report with a failing row claim fails", exit_code == GL_EXIT_CHECK);
    test_cond("the JSON report parses and has both rows",
              run("python3 tests/validate.py report test_report.json --rows 2 --verdict FAIL") == 0);
    test_cond("the JSON keeps claims with their rows, escaped",
              run("python3 -c \"import json,sys; d=json.load(open('test_report.json'));"
                  "r=d['rows']; sys.exit(not (r[0]['claims'][0]['text']=='depth, \\\"quoted\\\"\\nclaim' and "
                  "r[0]['claims'][0]['verdict']=='PASS' and r[1]['claims'][0]['verdict']=='FAIL' and "
                  "d['run_claims'][0]['text']=='a run-level claim' and r[0]['device']['name']=='GPU, with a comma' and "
                  "r[0]['metrics']['makespan']['median']==2.0 and r[0]['params']['streams']=='16'))\"") == 0);
    test_cond("the CSV parses, one row per configuration, with the union of columns",
              run("python3 tests/validate.py csv test_report.csv --rows 2 "
                  "--columns experiment,device_name,variant,streams,model,extra,makespan_median_ms,verdict") == 0);
    test_cond("the CSV quotes commas and gives each row its verdict",
              run("python3 -c \"import csv,sys; r=list(csv.DictReader(open('test_report.csv')));"
                  "sys.exit(not (r[0]['device_name']=='GPU, with a comma' and r[0]['verdict']=='PASS' and "
                  "r[1]['verdict']=='FAIL' and r[0]['extra']=='' and r[1]['extra']=='only here'))\"") == 0);
    remove("test_report.json");
    remove("test_report.csv");

    common.json_path = "/nonexistent-dir/x.json";
    common.csv_path = NULL;
    gl_report_init(&r, "demo", &common);
    capture_begin();
    exit_code = gl_report_finish(&r);
    capture_end();
    test_cond("an output file that cannot be written fails the run", exit_code == GL_EXIT_CHECK);

    /* Tables. */
    static const char *headers[] = {"order", "median ms"};
    gl_table t;
    gl_table_init(&t, 2, headers);
    gl_table_cell(&t, "%s", "breadth");
    gl_table_cell(&t, "%.3f", 4.076);
    gl_table_cell(&t, "%s", "depth");
    gl_table_cell(&t, "%.3f", 49.086);
    capture_begin();
    gl_table_print(stdout, &t);
    capture_end();
    gl_table_free(&t);
    test_cond("the table aligns text left and numbers right",
              strstr(captured, "| order   | median ms |\n") && strstr(captured, "| breadth |     4.076 |\n") &&
                  strstr(captured, "| depth   |    49.086 |\n"));

    test_report();
}
