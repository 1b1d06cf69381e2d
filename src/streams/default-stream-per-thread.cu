/* default-stream-per-thread.cu - default-stream, built with --default-stream per-thread.
 *
 * Question: built with --default-stream per-thread, does a kernel on stream 0 still act as a barrier across blocking streams, and which ordinary calls serialize the others?
 * Build: per-thread
 * Sanitize: --quick --profile --kernel-us 20 --implicit-us 50 --skip-timing-claims
 *
 * The same experiment as default-stream.cu (its header comment has the
 * pattern, the variants, the model and the claims), compiled so that stream 0,
 * and every call that takes no stream (cudaMemcpy, cudaMemset), means the
 * calling host thread's per-thread default stream. That stream synchronizes
 * with the legacy stream only, so in the "blocking" variant kernel_3 is no
 * longer a barrier: the model's program puts it in a PER_THREAD stream, and
 * the claims expect no barrier, as for the explicit cudaStreamPerThread handle.
 * The implicit-synchronization table is measured again: the copies and the
 * memset now go to the per-thread stream.
 *
 * Run:   make run-default-stream-per-thread ARGS="--connections 1"
 * Nsight Systems (make profile-default-stream-per-thread): kernel_3 appears on
 * the per-thread stream's row, beside kernel_1 of the other streams.
 */
#define DS_PER_THREAD_BUILD 1
#include "default-stream.cu"
