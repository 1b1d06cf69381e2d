/* test_options.c - the option parser: valid values, malformed values, ranges,
 * lists, --quick, --help, and the output-path check. */
#include "testutil.h"

#include "gl_common.h"
#include "harness.h"
#include "gl_options.h"

/* A fresh experiment table for every case. */
typedef struct fixture {
    int streams, order, quiet;
    double us;
    const char *name;
    gl_option opts[5];
    gl_common common;
    char out[4096], err[4096];
} fixture;

static const gl_experiment exp = {"demo", "what does the parser do?", NULL};

static void fixture_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->streams = 16;
    f->order = 2;
    f->us = 1000;
    gl_option opts[5] = {
        {"streams", GL_OPT_INT, &f->streams, 1, 1024, NULL, "4", "streams", 0},
        {"kernel-us", GL_OPT_DOUBLE, &f->us, 1, 1e6, NULL, "200", "kernel duration", 0},
        {"order", GL_OPT_CHOICE, &f->order, 0, 0, "depth|breadth|both", NULL, "issue order", 0},
        {"quiet", GL_OPT_FLAG, &f->quiet, 0, 0, NULL, NULL, "be quiet", 0},
        {"name", GL_OPT_STRING, &f->name, 0, 0, NULL, NULL, "a name", 0},
    };
    memcpy(f->opts, opts, sizeof opts);
    gl_common_defaults(&f->common);
}

/* Parse a NULL-terminated argument list, capturing what the parser prints. */
static int parse(fixture *f, const char **args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"demo";
    for (; args[argc - 1] && argc < 31; argc++) argv[argc] = (char *)args[argc - 1];
    FILE *out = tmpfile(), *err = tmpfile();
    if (!out || !err) exit(1);
    int rc = gl_options_parse(&exp, f->opts, 5, &f->common, argc, argv, out, err);
    rewind(out);
    rewind(err);
    size_t n = fread(f->out, 1, sizeof f->out - 1, out);
    f->out[n] = '\0';
    n = fread(f->err, 1, sizeof f->err - 1, err);
    f->err[n] = '\0';
    fclose(out);
    fclose(err);
    return rc;
}

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

int main(void)
{
    fixture f;

    fixture_init(&f);
    test_cond("no arguments parse and keep the defaults",
              parse(&f, (const char *[]){NULL}) == GL_PARSE_OK && f.streams == 16 && f.us == 1000 && f.order == 2 &&
                  f.common.repeat == 10 && f.common.warmup == 2 && !f.common.quick);

    fixture_init(&f);
    test_cond("valid values of every type are stored",
              parse(&f, ARGS("--streams", "32", "--kernel-us", "2.5e3", "--order", "breadth", "--quiet", "--name",
                             "x.json")) == GL_PARSE_OK &&
                  f.streams == 32 && f.us == 2500 && f.order == 1 && f.quiet == 1 && strcmp(f.name, "x.json") == 0);

    fixture_init(&f);
    test_cond("--name=value form works", parse(&f, ARGS("--streams=7", "--order=depth")) == GL_PARSE_OK &&
                                             f.streams == 7 && f.order == 0);

    fixture_init(&f);
    test_cond("range ends are accepted", parse(&f, ARGS("--streams", "1", "--kernel-us", "1e6")) == GL_PARSE_OK &&
                                             f.streams == 1 && f.us == 1e6);

    fixture_init(&f);
    int rc = parse(&f, ARGS("--streams", "0"));
    test_cond("below the range is a usage error", rc == GL_EXIT_USAGE);
    test_cond("the message names the option and the accepted range",
              strstr(f.err, "--streams") && strstr(f.err, "out of range") && strstr(f.err, "1..1024"));

    fixture_init(&f);
    test_cond("above the range is a usage error",
              parse(&f, ARGS("--streams", "1025")) == GL_EXIT_USAGE && strstr(f.err, "1..1024"));

    fixture_init(&f);
    test_cond("an int beyond long long is out of range, not wrapped",
              parse(&f, ARGS("--streams", "99999999999999999999999")) == GL_EXIT_USAGE && f.streams == 16);

    fixture_init(&f);
    test_cond("trailing garbage is not an integer",
              parse(&f, ARGS("--streams", "12abc")) == GL_EXIT_USAGE && strstr(f.err, "not an integer"));

    fixture_init(&f);
    test_cond("a fraction is not an integer", parse(&f, ARGS("--streams", "1.5")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("an empty value is refused", parse(&f, ARGS("--streams=")) == GL_EXIT_USAGE && strstr(f.err, "empty"));

    fixture_init(&f);
    test_cond("nan is not a number", parse(&f, ARGS("--kernel-us", "nan")) == GL_EXIT_USAGE &&
                                         strstr(f.err, "--kernel-us"));

    fixture_init(&f);
    test_cond("inf is out of range", parse(&f, ARGS("--kernel-us", "inf")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("an unknown choice lists the accepted words",
              parse(&f, ARGS("--order", "sideways")) == GL_EXIT_USAGE && strstr(f.err, "depth|breadth|both"));

    fixture_init(&f);
    test_cond("a choice prefix is not a choice", parse(&f, ARGS("--order", "dep")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("an unknown option is a usage error",
              parse(&f, ARGS("--bogus")) == GL_EXIT_USAGE && strstr(f.err, "unknown option '--bogus'"));

    fixture_init(&f);
    test_cond("an option name prefix is not accepted", parse(&f, ARGS("--stream", "3")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("a missing value is a usage error naming the range",
              parse(&f, ARGS("--streams")) == GL_EXIT_USAGE && strstr(f.err, "needs a value") &&
                  strstr(f.err, "1..1024"));

    fixture_init(&f);
    test_cond("a positional argument is a usage error", parse(&f, ARGS("extra")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("a flag given a value is a usage error", parse(&f, ARGS("--quiet=1")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("common options parse", parse(&f, ARGS("--repeat", "5", "--warmup", "0", "--seed", "18446744073709551615",
                                                     "--json", "r.json", "--csv", "r.csv", "--trace", "t.json",
                                                     "--timeline", "--device", "1")) == GL_PARSE_OK &&
                                          f.common.repeat == 5 && f.common.warmup == 0 &&
                                          f.common.seed == 18446744073709551615ULL && f.common.device == 1 &&
                                          f.common.timeline && strcmp(f.common.trace_path, "t.json") == 0);

    fixture_init(&f);
    test_cond("--repeat 0 is out of range", parse(&f, ARGS("--repeat", "0")) == GL_EXIT_USAGE &&
                                                strstr(f.err, "--repeat"));

    fixture_init(&f);
    test_cond("a negative seed is refused", parse(&f, ARGS("--seed", "-1")) == GL_EXIT_USAGE);

    fixture_init(&f);
    test_cond("a seed beyond 64 bits is refused", parse(&f, ARGS("--seed", "18446744073709551616")) == GL_EXIT_USAGE);

    {
        int v[] = {7, 3, 9, 3};
        gl_int_list l = {v, 4}, one = {v + 2, 1};
        test_cond("gl_int_list_min and _max: the smallest and largest value, of one value that value",
                  gl_int_list_min(l) == 3 && gl_int_list_max(l) == 9 && gl_int_list_min(one) == 9 &&
                      gl_int_list_max(one) == 9);
    }

    fixture_init(&f);
    test_cond("--quick applies the quick values",
              parse(&f, ARGS("--quick")) == GL_PARSE_OK && f.streams == 4 && f.us == 200 && f.common.repeat == 3 &&
                  f.common.warmup == 1 && f.order == 2);

    {
        /* An experiment's own --repeat, named like the common one: its --quick value is the one applied. */
        gl_common common;
        gl_option own[1] = {{"repeat", GL_OPT_INT, &common.repeat, 1, 100000, NULL, "9", "repetitions", 0}};
        const char *quick[] = {"demo", "--quick"}, *both[] = {"demo", "--quick", "--repeat", "5"}, *none[] = {"demo"};
        FILE *sink = tmpfile();
        int rc[3], got[3], warm[3];
        const char **argvs[3] = {quick, both, none};
        int argcs[3] = {2, 4, 1};
        for (int k = 0; k < 3; k++) {
            gl_common_defaults(&common);
            rc[k] = gl_options_parse(&exp, own, 1, &common, argcs[k], (char **)argvs[k], sink, sink);
            got[k] = common.repeat;
            warm[k] = common.warmup;
        }
        if (sink) fclose(sink);
        test_cond("an experiment's option named like a common one keeps its own --quick value (--repeat: 9, not 3), "
                  "and a value given with --quick; the other common quick values still apply (--warmup 1)",
                  rc[0] == GL_PARSE_OK && got[0] == 9 && rc[1] == GL_PARSE_OK && got[1] == 5 && rc[2] == GL_PARSE_OK &&
                      got[2] == 10 && warm[0] == 1 && warm[1] == 1 && warm[2] == 2);
    }

    fixture_init(&f);
    test_cond("--quick keeps values given on the command line, in any order",
              parse(&f, ARGS("--streams", "9", "--quick", "--repeat", "7")) == GL_PARSE_OK && f.streams == 9 &&
                  f.us == 200 && f.common.repeat == 7);

    fixture_init(&f);
    rc = parse(&f, ARGS("--streams", "bad", "--help"));
    test_cond("--help wins over other arguments", rc == GL_PARSE_HELP && f.err[0] == '\0');
    test_cond("--help lists experiment and common options with ranges and defaults",
              strstr(f.out, "--streams") && strstr(f.out, "integer 1..1024; default 16; --quick 4") &&
                  strstr(f.out, "--repeat") && strstr(f.out, "--trace") && strstr(f.out, "exit codes") &&
                  strstr(f.out, "what does the parser do?"));

    {
        /* The fixture's own --quiet takes over the common one: listed once, and setting both. */
        const char *const quiet_lines[] = {"  --quiet"};
        const char *p = strstr(f.out, quiet_lines[0]), *again = p ? strstr(p + 1, quiet_lines[0]) : NULL;
        test_cond("--help lists an option the experiment took over from the common ones once, as its own",
                  p && !again && strstr(p, "be quiet") && !strstr(f.out, "no progress line"));
    }
    fixture_init(&f);
    test_cond("an experiment's flag named like a common flag sets both (--quiet)",
              parse(&f, ARGS("--quiet")) == GL_PARSE_OK && f.quiet == 1 && f.common.quiet == 1);
    fixture_init(&f);
    test_cond("--quiet is off by default", parse(&f, ARGS("--streams", "2")) == GL_PARSE_OK && !f.common.quiet && !f.quiet);
    {
        /* An experiment without its own --quiet gets the common one. */
        gl_common c;
        gl_common_defaults(&c);
        int streams = 1;
        gl_option only[1] = {{"streams", GL_OPT_INT, &streams, 1, 8, NULL, NULL, "streams", 0}};
        char *argv_quiet[] = {(char *)"demo", (char *)"--quiet", NULL};
        FILE *out = tmpfile(), *err = tmpfile();
        int rc = gl_options_parse(&exp, only, 1, &c, 2, argv_quiet, out, err);
        test_cond("the common --quiet sets common.quiet", rc == GL_PARSE_OK && c.quiet == 1);
        char *argv_help[] = {(char *)"demo", (char *)"--help", NULL};
        rc = gl_options_parse(&exp, only, 1, &c, 2, argv_help, out, err);
        rewind(out);
        char text[8192];
        size_t n = fread(text, 1, sizeof text - 1, out);
        text[n] = '\0';
        const char *common_part = strstr(text, "common options:");
        test_cond("--help lists --quiet among the common options, saying what it silences",
                  rc == GL_PARSE_HELP && common_part && strstr(common_part, "--quiet") &&
                      strstr(common_part, "no progress line on stderr"));
        fclose(out);
        fclose(err);
    }

    fixture_init(&f);
    test_cond("a failed parse reports the first bad option only once",
              parse(&f, ARGS("--streams", "0", "--order", "x")) == GL_EXIT_USAGE && strstr(f.err, "--streams") &&
                  !strstr(f.err, "--order"));

    char buf[32];
    test_cond("choice names are found by index", strcmp(gl_choice_name("a|bb|ccc", 1, buf, sizeof buf), "bb") == 0 &&
                                                     strcmp(gl_choice_name("a|bb|ccc", 2, buf, sizeof buf), "ccc") == 0);

    fixture_init(&f);
    test_cond("gl_option_find finds by exact name",
              gl_option_find(f.opts, 5, "order") == &f.opts[2] && gl_option_find(f.opts, 5, "ord") == NULL);

    fixture_init(&f);
    test_cond("--connections takes one value", parse(&f, ARGS("--connections", "4")) == GL_PARSE_OK &&
                                                   f.common.connections.n == 1 && f.common.connections.v[0] == 4);
    fixture_init(&f);
    test_cond("--connections takes a list, in order",
              parse(&f, ARGS("--connections=1,2,32,8")) == GL_PARSE_OK && f.common.connections.n == 4 &&
                  f.common.connections.v[2] == 32 && f.common.connections.v[3] == 8);
    fixture_init(&f);
    test_cond("a list value out of range is refused, naming it",
              parse(&f, ARGS("--connections", "1,33")) == GL_EXIT_USAGE && strstr(f.err, "33 is out of range") &&
                  strstr(f.err, "integers 1..32"));
    fixture_init(&f);
    test_cond("an empty list element is refused", parse(&f, ARGS("--connections", "1,,2")) == GL_EXIT_USAGE &&
                                                      strstr(f.err, "not a list of integers"));
    fixture_init(&f);
    test_cond("a trailing comma is refused", parse(&f, ARGS("--connections", "4,")) == GL_EXIT_USAGE);
    fixture_init(&f);
    test_cond("a value given twice is refused", parse(&f, ARGS("--connections", "4,8,4")) == GL_EXIT_USAGE &&
                                                    strstr(f.err, "4 is listed twice"));
    fixture_init(&f);
    test_cond("'+4' and ' 4' are not list elements", parse(&f, ARGS("--connections", "+4")) == GL_EXIT_USAGE &&
                                                         parse(&f, ARGS("--connections", "2, 4")) == GL_EXIT_USAGE);
    fixture_init(&f);
    test_cond("an element beyond 64 bits is named as the user wrote it",
              parse(&f, ARGS("--connections", "99999999999999999999")) == GL_EXIT_USAGE &&
                  strstr(f.err, "99999999999999999999 is out of range"));
    fixture_init(&f);
    test_cond("--profile and --no-l2-flush are common flags",
              parse(&f, ARGS("--profile", "--no-l2-flush")) == GL_PARSE_OK && f.common.profile && f.common.no_l2_flush);

    /* Output paths are checked before any GPU work. */
    char ok_path[256];
    temp_path(ok_path, sizeof ok_path, ".json");
    FILE *keep = fopen(ok_path, "w");
    fputs("old", keep);
    fclose(keep);
    FILE *err = tmpfile();
    gl_common c;
    gl_common_defaults(&c);
    c.json_path = ok_path;
    test_cond("an existing writable file passes the check, and is not truncated by it",
              gl_outputs_check(&c, err) == 0 && (keep = fopen(ok_path, "r")) && fgetc(keep) == 'o');
    fclose(keep);
    remove(ok_path);
    test_cond("a new file in a writable folder passes, and is not left behind",
              gl_outputs_check(&c, err) == 0 && access(ok_path, F_OK) != 0);
    c.csv_path = "/nonexistent-dir/r.csv";
    test_cond("a path in a missing folder is a usage error", gl_outputs_check(&c, err) == GL_EXIT_USAGE);
    c.csv_path = NULL;
    c.trace_path = "/proc/x.json";
    test_cond("a path nobody can create (/proc) is a usage error", gl_outputs_check(&c, err) == GL_EXIT_USAGE);
    rewind(err);
    char msg[512];
    size_t n = fread(msg, 1, sizeof msg - 1, err);
    msg[n] = '\0';
    fclose(err);
    test_cond("the message names the option and the path",
              strstr(msg, "--csv /nonexistent-dir/r.csv: cannot write there") && strstr(msg, "--trace /proc/x.json"));
    {
        static const char *const names[] = {"cpu", "flat", "cub"};
        int chosen[3];
        int n = gl_choose_names("variant", "all", names, 3, chosen);
        test_cond("--variant all picks every name", n == 3 && chosen[0] && chosen[1] && chosen[2]);
        n = gl_choose_names("variant", "cub,cpu", names, 3, chosen);
        test_cond("--variant cub,cpu picks those two, in any order", n == 2 && chosen[0] && !chosen[1] && chosen[2]);
    }
    test_report();
}
