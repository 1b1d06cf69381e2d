/* fake-libcuda.c - a stand-in for the CUDA driver (libcuda.so.1), so that the
 * command-line tests can show what a run says with an old driver or no GPU on
 * a machine that has neither. The runtime reads the driver's version first and
 * refuses an older one; a current one it initializes, and this one answers
 * that no device is present. Built by tests/cli.sh:
 *   cc -shared -fPIC -DDRIVER_VERSION=12040 -DINIT_RESULT=0 -o DIR/libcuda.so.1 tests/fake-libcuda.c */
#ifndef DRIVER_VERSION
#define DRIVER_VERSION 12040 /* CUDA 12.4, as cuDriverGetVersion encodes it */
#endif
#ifndef INIT_RESULT
#define INIT_RESULT 100 /* CUDA_ERROR_NO_DEVICE */
#endif

/* The CUDA version this driver supports. */
int cuDriverGetVersion(int *version)
{
    *version = DRIVER_VERSION;
    return 0;
}

/* Starting the driver: fails as a machine without a GPU does. */
int cuInit(unsigned int flags)
{
    (void)flags;
    return INIT_RESULT;
}
