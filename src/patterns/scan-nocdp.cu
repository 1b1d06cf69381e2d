/* scan-nocdp.cu - scan, built without the device runtime, for the sanitizers.
 *
 * Question: with no relocatable device code linked in, are the scans other than hierarchical-cdp free of shared-memory races and barrier misuse?
 * Build: openmp cub
 * Sanitize: --quick --profile --n 50003 --skip-timing-claims
 *
 * The same experiment as scan.cu (its header comment has the variants, the
 * model and the claims), without hierarchical-cdp: compute-sanitizer's
 * racecheck and synccheck refuse any binary linked for CUDA dynamic
 * parallelism ("CUDA Dynamic Parallelism is not supported"), even when no
 * device-side launch runs, so scan itself can only be memchecked. This build
 * lets make sanitize-all run racecheck and synccheck on every other variant;
 * --variant hierarchical-cdp is refused here (exit 2), and --variant all
 * leaves it out.
 *
 * Run:   make run-scan-nocdp ARGS="--quick"
 *        make sanitize-scan-nocdp
 */
#define SCAN_NO_CDP 1
#include "scan.cu"
