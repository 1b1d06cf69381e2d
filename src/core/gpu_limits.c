/* gpu_limits.c - limits that differ between compute capabilities. */
#include "gl_gpu_limits.h"

int gl_max_resident_grids(int major, int minor)
{
    /* Smaller chips (the Tegra parts 3.2, 5.3, 6.2 and 7.2) and the
     * Kepler/Maxwell desktop parts hold fewer grids than the rest. */
    switch (major * 10 + minor) {
    case 30: return 16;
    case 32: return 4;
    case 35: case 37: case 50: case 52: return 32;
    case 53: return 16;
    case 60: return 128;
    case 61: return 32;
    case 62: return 16;
    case 70: return 128;
    case 72: return 16;
    default: return major >= 7 ? 128 : 16; /* 7.5 and every later capability: 128; Fermi and older: 16 */
    }
}
