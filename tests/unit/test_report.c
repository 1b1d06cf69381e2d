/* test_report.c - rows, claims by row, verdicts, SKIP rules, growth, bandwidth,
 * and the table, JSON and CSV generated from the rows. */
#include "testutil.h"

#include <math.h>

#include "gl_check.h"
#include "gl_common.h"
#include "gl_output.h"
#include "harness.h"
#include "gl_report.h"

static gl_common common;

/* Validate a file with tests/check_outputs.py (no shell, so no quoting). */
static int validate(const char *kind, const char *path, const char *a1, const char *a2, const char *a3,
                    const char *a4)
{
    char *argv[] = {(char *)"python3", (char *)"tests/check_outputs.py", (char *)kind, (char *)path,
                    (char *)a1,        (char *)a2,                  (char *)a3,   (char *)a4, NULL};
    return run_argv(argv);
}

static gl_stats three(double a, double b, double c)
{
    double x[3] = {a, b, c};
    return gl_stats_of(x, 3);
}

/* A value called "verdict" would take the verdict column's place. */
static void reserved_name(void *unused)
{
    (void)unused;
    gl_report r;
    gl_report_init(&r, "demo", &common);
    gl_row_text(gl_report_row(&r, "t", "v"), "verdict", 0, "mine");
}

int main(void)
{
    gl_common_defaults(&common);
    gl_report r;

    /* ---- claims and their rows ---- */
    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_row *a = gl_report_row(&r, "t", "a");
    gl_row *b = gl_report_row(&r, "t", "b");
    gl_verdict v = gl_claim_near(&r, a, GL_CLAIM_TIMING, "makespan is 4 ms", 4.0, 4.5, 0.15, 0.0, "ms");
    gl_claim_fact(&r, NULL, GL_CLAIM_ORDERING, 1, "a run-level fact", "evidence");
    gl_claim_at_most(&r, a, GL_CLAIM_TIMING, "cost", 2.01, 2.0, "us");
    gl_claim_at_least(&r, b, GL_CLAIM_TIMING, "throughput", 5.0, 5.0, "GB/s");
    capture_end();
    test_cond("within tolerance passes", v == GL_PASS);
    test_cond("the claim line has text, verdict and evidence",
              strstr(captured, "CLAIM makespan is 4 ms: PASS (predicted 4 ms, measured 4.5 ms (+12.5%)") != NULL);
    test_cond("a claim belongs to the row named, not the last row added", r.claims[0].row == a->index && a->index == 0);
    test_cond("a claim with row NULL belongs to the run", r.claims[1].row == -1);
    test_cond("a later claim on an earlier row stays there", r.claims[2].row == 0 && r.claims[3].row == 1);
    test_cond("at-most fails above the limit, so row a fails", gl_row_verdict(&r, a) == GL_FAIL);
    test_cond("at-least passes at the limit, so row b passes", gl_row_verdict(&r, b) == GL_PASS);
    gl_tally t = gl_report_tally(&r, a->index);
    test_cond("the tally of a row counts only its claims", t.claims_passed == 1 && t.claims_failed == 1);
    t = gl_report_tally(&r, GL_TALLY_ALL);
    test_cond("the run's tally counts every claim", t.claims_passed == 3 && t.claims_failed == 1);
    capture_begin();
    int code = gl_report_finish(&r);
    capture_end();
    test_cond("a failed claim makes the exit code 1", code == GL_EXIT_CHECK);
    test_cond("the verdict line counts claims", strstr(captured, "verdict: FAIL (claims: 3 passed, 1 failed") != NULL);

    /* ---- near: symmetric, slack, NaN ---- */
    gl_report_init(&r, "demo", &common);
    capture_begin();
    test_cond("just outside the tolerance fails",
              gl_claim_near(&r, NULL, GL_CLAIM_TIMING, "x", 4.0, 4.61, 0.15, 0.0, "ms") == GL_FAIL);
    test_cond("absolute slack widens it", gl_claim_near(&r, NULL, GL_CLAIM_TIMING, "x", 4.0, 4.61, 0.15, 0.02, "ms") == GL_PASS);
    test_cond("below the prediction fails alike", gl_claim_near(&r, NULL, GL_CLAIM_TIMING, "x", 4.0, 3.39, 0.15, 0, "ms") == GL_FAIL);
    test_cond("a NaN measurement fails", gl_claim_near(&r, NULL, GL_CLAIM_TIMING, "x", 4.0, NAN, 0.15, 1e9, "ms") == GL_FAIL);
    test_cond("a prediction of 0 is judged on the slack alone",
              gl_claim_near(&r, NULL, GL_CLAIM_TIMING, "zero", 0, 0.5, 0.1, 1.0, "us") == GL_PASS);
    capture_end();
    gl_report_free(&r);

    /* ---- ratios ---- */
    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_verdict r1 = gl_claim_ratio_at_least(&r, NULL, GL_CLAIM_TIMING, "flat at least 1.0x cub", "flat GB/s", 3000,
                                            "cub GB/s", 2900, 1.0);
    gl_verdict r2 = gl_claim_ratio_at_least(&r, NULL, GL_CLAIM_TIMING, "flat at least 1.0x cub", "flat GB/s", 2800,
                                            "cub GB/s", 2900, 1.0);
    gl_verdict r3 = gl_claim_ratio_at_most(&r, NULL, GL_CLAIM_TIMING, "agg at most 1.25x flat", "agg ms", 1.2, "flat ms",
                                           1.0, 1.25);
    gl_verdict r4 = gl_claim_ratio_at_least(&r, NULL, GL_CLAIM_TIMING, "no cub", "flat GB/s", 3000, "cub GB/s", NAN, 1.0);
    capture_end();
    test_cond("ratio at least: 3000/2900 passes, 2800/2900 fails", r1 == GL_PASS && r2 == GL_FAIL);
    test_cond("ratio at most: 1.2 <= 1.25 passes", r3 == GL_PASS);
    test_cond("a ratio with an unmeasured side is SKIP, never PASS or FAIL",
              r4 == GL_SKIP && strstr(captured, "CLAIM no cub: SKIP (n/a:") != NULL);
    test_cond("the ratio's evidence shows both values and the ratio",
              strstr(captured, "flat GB/s / cub GB/s = 3000 / 2900 = 1.034x, at least 1.000x") != NULL);
    gl_report_free(&r);

    /* ---- SKIP when there is nothing to judge ---- */
    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_row *tail = gl_report_row(&r, "tree", "tail");
    gl_verdict e0 = gl_claim_every(&r, tail, GL_CLAIM_ORDERING, "every child starts after its parent", 0, 0,
                                   "parent-child pairs", "no parent-child pairs at --threads 1");
    gl_verdict e1 = gl_claim_every(&r, tail, GL_CLAIM_ORDERING, "all", 5, 5, "pairs", "none");
    gl_verdict e2 = gl_claim_every(&r, tail, GL_CLAIM_ORDERING, "all", 4, 5, "pairs", "none");
    gl_order empty = {0, 0, 3, 0, 0, 0, 0};
    gl_order fine = {1, 1, 3, 500, 400, 100, 0};
    gl_verdict o0 = gl_claim_order(&r, tail, GL_CLAIM_ORDERING, "probe after", &empty, "no probe span");
    gl_verdict o1 = gl_claim_order(&r, tail, GL_CLAIM_ORDERING, "probe after", &fine, "no probe span");
    gl_verdict s0 = gl_claim_skip(&r, NULL, GL_CLAIM_TIMING, "not here", "n/a: %s", "no GPU graphs");
    capture_end();
    test_cond("zero cases is SKIP with the reason",
              e0 == GL_SKIP &&
                  strstr(captured, "every child starts after its parent: SKIP (n/a: no parent-child pairs at --threads 1)"));
    test_cond("all cases holding passes, one missing fails", e1 == GL_PASS && e2 == GL_FAIL);
    test_cond("an ordering over an empty set is SKIP, not PASS", o0 == GL_SKIP && strstr(captured, "SKIP (n/a: no probe span"));
    test_cond("an ordering that holds passes with its margin", o1 == GL_PASS && strstr(captured, "= 0.100 us"));
    test_cond("an explicit skip is SKIP", s0 == GL_SKIP);
    gl_report_free(&r);

    /* ---- row verdicts ---- */
    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_row *only_skips = gl_report_row(&r, "t", "skips");
    gl_claim_skip(&r, only_skips, GL_CLAIM_TIMING, "x", "why");
    gl_row *nothing = gl_report_row(&r, "t", "nothing");
    gl_row *skipped = gl_report_row(&r, "t", "skipped");
    gl_row_skip(skipped, "needs %d SMs", 200);
    gl_row *checked = gl_report_row(&r, "t", "checked");
    gl_check(&r, checked, 0, "sum matches");
    capture_end();
    test_cond("a row whose claims were all skipped is SKIP", gl_row_verdict(&r, only_skips) == GL_SKIP);
    test_cond("a row with nothing claimed has no verdict", gl_row_verdict(&r, nothing) == GL_NO_VERDICT);
    test_cond("a skipped configuration is SKIP, and says why",
              gl_row_verdict(&r, skipped) == GL_SKIP && strstr(captured, "SKIP t skipped: needs 200 SMs"));
    test_cond("a failed data check fails its row", gl_row_verdict(&r, checked) == GL_FAIL);
    t = gl_report_tally(&r, GL_TALLY_ALL);
    test_cond("checks are counted apart from claims", t.checks_failed == 1 && t.claims_skipped == 1 && t.claims_failed == 0);
    capture_begin();
    code = gl_report_finish(&r);
    capture_end();
    test_cond("a failed data check gives exit code 1", code == GL_EXIT_CHECK);
    test_cond("the tables list skipped rows with their reason", strstr(captured, "skipped: t skipped: needs 200 SMs") != NULL);

    /* ---- --skip-timing-claims ---- */
    common.skip_timing_claims = 1;
    gl_report_init(&r, "demo", &common);
    capture_begin();
    v = gl_claim_near(&r, NULL, GL_CLAIM_TIMING, "timing", 4.0, 40.0, 0.15, 0, "ms");
    gl_verdict v2 = gl_claim_fact(&r, NULL, GL_CLAIM_ORDERING, 0, "ordering", "broken");
    code = gl_report_finish(&r);
    capture_end();
    common.skip_timing_claims = 0;
    test_cond("--skip-timing-claims turns a failing timing claim into SKIP", v == GL_SKIP);
    test_cond("--skip-timing-claims never skips an ordering claim", v2 == GL_FAIL && code == GL_EXIT_CHECK);
    test_cond("a skipped claim says why", strstr(captured, "not enforced: --skip-timing-claims") != NULL);

    /* ---- no silent limits ---- */
    gl_report_init(&r, "demo", &common);
    for (int i = 0; i < 40; i++) gl_report_device(&r, "field", "%d", i);
    gl_row *first = gl_report_row(&r, "wide", "first");
    for (int i = 0; i < 300; i++) {
        gl_row *x = gl_report_row(&r, "many", "row");
        gl_row_param_num(x, "i", "", 0, i);
    }
    char name[32];
    for (int i = 0; i < 100; i++) {
        snprintf(name, sizeof name, "p%d", i);
        gl_row_param_num(first, name, "", 0, i);
        snprintf(name, sizeof name, "v%d", i);
        gl_row_number(first, name, "ms", 2, 0, i * 0.5);
    }
    char long_text[5001];
    memset(long_text, 'x', 5000);
    long_text[5000] = '\0';
    gl_row_text(first, "long", GL_HIDE, "%s", long_text);
    test_cond("40 device fields are all kept", r.n_device == 40);
    test_cond("the first row's handle is still valid after 300 more rows",
              first == r.rows[0] && strcmp(first->variant, "first") == 0 && first->index == 0);
    test_cond("100 parameters and 101 values are all kept",
              first->n_values == 201 && gl_row_find(first, "p99") && gl_row_find(first, "v99")->number == 49.5);
    test_cond("a 5000-character value is kept whole", strlen(gl_row_find(first, "long")->text) == 5000);
    capture_begin();
    gl_report_print_tables(&r, stdout);
    capture_end();
    test_cond("a 202-column table prints every column on one line (no wrap)",
              strstr(captured, "| v99 ms | verdict |\n") != NULL && strstr(captured, "|  49.50 | -       |") != NULL);
    test_cond("a hidden value stays out of the terminal", strstr(captured, "xxxxxxxxxx") == NULL);
    char csv_path[256], json_path[256];
    temp_path(csv_path, sizeof csv_path, ".csv");
    temp_path(json_path, sizeof json_path, ".json");
    FILE *f = fopen(csv_path, "w");
    test_cond("a 300-row, 200-column CSV is written", f && gl_report_write_csv(&r, f) == 0 && fclose(f) == 0);
    test_cond("every column and row is in it",
              validate("csv", csv_path, "--rows", "301", "--columns", "device_field,p0,p99,v0_ms,v99_ms,long,i") == 0);
    gl_report_free(&r);

    /* ---- bandwidth from declared work ---- */
    gl_report_init(&r, "demo", &common);
    gl_report_set_peak(&r, 4000);
    gl_row *bw = gl_report_row(&r, "bw", "copy");
    gl_row_work(bw, "time", 2e9, 5e8);
    gl_row_stats(bw, "time", "ms", 3, 0, three(0.8, 1.0, 1.2));
    gl_row *nobw = gl_report_row(&r, "bw", "none");
    gl_row_stats(nobw, "time", "ms", 3, 0, three(1, 1, 1));
    capture_begin();
    gl_report_print_tables(&r, stdout);
    capture_end();
    test_cond("GB/s is bytes over the median time", fabs(gl_row_find(bw, "bandwidth")->number - 2000) < 1e-9);
    gl_row_number(nobw, "count", "", 0, 0, 7);
    gl_row_stats(nobw, "empty", "ms", 3, 0, gl_stats_of(NULL, 0));
    test_cond("gl_row_median: a statistics value's median; NAN for a missing row, a missing value, a number, no samples",
              fabs(gl_row_median(bw, "time") - 1.0) < 1e-12 && isnan(gl_row_median(NULL, "time")) &&
                  isnan(gl_row_median(bw, "nothing")) && isnan(gl_row_median(nobw, "count")) &&
                  isnan(gl_row_median(nobw, "empty")));
    test_cond("gl_row_stats_of: a statistics value's statistics; no samples for a missing row, value, or a number",
              gl_row_stats_of(bw, "time").n == 3 && fabs(gl_row_stats_of(bw, "time").max - 1.2) < 1e-12 &&
                  gl_row_stats_of(NULL, "time").n == 0 && gl_row_stats_of(bw, "nothing").n == 0 &&
                  gl_row_stats_of(nobw, "count").n == 0);
    test_cond("the best GB/s uses the minimum time", fabs(gl_row_find(bw, "bandwidth_best")->number - 2500) < 1e-9);
    test_cond("percent of peak is GB/s over the device's peak", fabs(gl_row_find(bw, "peak_fraction")->number - 50) < 1e-9);
    test_cond("elements per second from declared elements", fabs(gl_row_find(bw, "throughput")->number - 500) < 1e-9);
    test_cond("a row without declared bytes derives nothing", gl_row_find(nobw, "bandwidth") == NULL);
    test_cond("the table shows GB/s and % of peak", strstr(captured, "bandwidth GB/s") && strstr(captured, "2000.0") &&
                                                        strstr(captured, "peak fraction %") && strstr(captured, "50.0"));
    capture_begin();
    gl_report_print_tables(&r, stdout);
    capture_end();
    test_cond("deriving twice adds nothing twice", bw->n_values == 5);
    gl_report_free(&r);
    gl_report_init(&r, "demo", &common);
    gl_row *wrong = gl_report_row(&r, "t", "v");
    gl_row_work(wrong, "time", 1e6, 0);
    gl_row_number(wrong, "time", "ms", 3, 0, 1.0);
    capture_begin();
    gl_report_print_tables(&r, stdout);
    capture_end();
    test_cond("work declared per a value that is not a timed statistic fails the row, keeping the results",
              gl_row_verdict(&r, wrong) == GL_FAIL && strstr(captured, "'time' is not a statistics value"));
    gl_report_free(&r);
    test_cond("a value named like a column of the report's own is a bug (exit 6)",
              exit_code_of(reserved_name, NULL) == GL_EXIT_INTERNAL);

    /* ---- the files ---- */
    common.json_path = json_path;
    common.csv_path = csv_path;
    gl_report_init(&r, "demo \"quoted\"", &common);
    gl_report_device(&r, "name", "GPU, with a comma");
    capture_begin();
    gl_claim_fact(&r, NULL, GL_CLAIM_ORDERING, 1, "a run-level claim", "before any row");
    gl_report_finding(&r, "contention takes %.2fx as long", 2.5);
    gl_report_finding(&r, "contention takes %.2fx as long", 2.5); /* a sweep's children said it again */
    test_cond("a finding said twice is kept once", r.n_findings == 1);
    gl_row *depth = gl_report_row(&r, "makespan", "depth");
    gl_row_param_num(depth, "streams", "", 0, 16);
    gl_row_param(depth, "model", "(ceil(16/1)*(4-1)+1)*1000 us");
    gl_row_stats(depth, "makespan", "ms", 3, GL_SHOW_MIN | GL_SHOW_NOISE, three(1, 2, 3));
    gl_row *breadth = gl_report_row(&r, "makespan", "breadth");
    gl_row_param_num(breadth, "streams", "", 0, 16);
    gl_row_text(breadth, "extra", 0, "only here");
    gl_row_stats(breadth, "makespan", "ms", 3, 0, three(1, 2, 3));
    gl_claim_near(&r, breadth, GL_CLAIM_TIMING, "breadth", 2.0, 9.0, 0.15, 0, "ms");
    gl_claim_near(&r, depth, GL_CLAIM_TIMING, "depth, \"quoted\"\nclaim", 2.0, 2.0, 0.15, 0, "ms");
    code = gl_report_finish(&r);
    capture_end();
    test_cond("the report with a failing row claim fails", code == GL_EXIT_CHECK);
    test_cond("the table has a title, units, and numbers aligned right",
              strstr(captured, "makespan:\n| variant | streams | model") &&
                  strstr(captured, "| makespan ms | makespan min ms | makespan noise % | extra     | verdict |") &&
                  strstr(captured, "|       2.000 |"));
    test_cond("the JSON parses, with both rows", validate("report", json_path, "--rows", "2", "--verdict", "FAIL") == 0);
    test_cond("the JSON keeps each claim with the row it names, escaped",
              validate("json", json_path, "--expect", "rows.0.claims.0.text=depth, \"quoted\"\nclaim", "--expect",
                       "rows.1.claims.0.verdict=FAIL") == 0);
    test_cond("a finding is printed and kept in the JSON",
              strstr(captured, "finding: contention takes 2.50x as long\n") &&
                  validate("json", json_path, "--expect", "findings.0=contention takes 2.50x as long", "--expect",
                           "verdict=FAIL") == 0);
    test_cond("the JSON has run claims, device fields, numeric params and statistics",
              validate("json", json_path, "--expect", "run_claims.0.text=a run-level claim", "--expect",
                       "rows.0.device.name=GPU, with a comma") == 0 &&
                  validate("json", json_path, "--expect", "rows.0.params.streams.value=16", "--expect",
                           "rows.0.values.makespan.median=2") == 0 &&
                  validate("json", json_path, "--expect", "rows.0.values.makespan.stddev=1", "--expect",
                           "rows.0.verdict=PASS") == 0);
    test_cond("the CSV parses, one row per configuration, with the union of columns and stddev",
              validate("csv", csv_path, "--rows", "2", "--columns",
                       "experiment,device_name,table,variant,streams,model,extra,makespan_median_ms,makespan_stddev_ms,"
                       "verdict") == 0);
    test_cond("the CSV quotes commas and gives each row its verdict",
              validate("csv", csv_path, "--cell", "0:device_name=GPU, with a comma", "--cell", "1:verdict=FAIL") == 0 &&
                  validate("csv", csv_path, "--cell", "0:extra=", "--cell", "1:extra=only here") == 0);
    remove(json_path);
    remove(csv_path);

    /* ---- a result file that cannot be written ---- */
    common.json_path = "/nonexistent-dir/x.json";
    common.csv_path = NULL;
    gl_report_init(&r, "demo", &common);
    capture_begin();
    gl_claim_fact(&r, NULL, GL_CLAIM_ORDERING, 1, "fine", "yes");
    code = gl_report_finish(&r);
    capture_end();
    test_cond("a result file that cannot be written exits 5, not 0 or 1", code == GL_EXIT_IO);
    common.json_path = NULL;

    /* ---- comparisons as data checks ---- */
    gl_report_init(&r, "demo", &common);
    int ref[5] = {1, 2, 3, 4, 5}, got[5] = {1, 2, 30, 4, 50};
    capture_begin();
    gl_row *sum = gl_report_row(&r, "sum", "v");
    int ok = gl_check_compare(&r, sum, "histogram matches", GL_I32, ref, got, 5, 0, 0);
    int ok2 = gl_check_compare(&r, sum, "prefix matches", GL_I32, ref, ref, 5, 0, 0);
    capture_end();
    test_cond("a mismatch fails the check and its row", !ok && ok2 && gl_row_verdict(&r, sum) == GL_FAIL);
    test_cond("the mismatch printer gives the count and the first few as index, expected, got",
              strstr(captured, "CHECK histogram matches: FAIL (2 of 5 elements differ)") &&
                  strstr(captured, "[2] expected 3, got 30") && strstr(captured, "[4] expected 5, got 50"));
    test_cond("a matching comparison passes", strstr(captured, "CHECK prefix matches: PASS (all 5 elements match)") != NULL);
    gl_report_free(&r);

    test_report();
}
