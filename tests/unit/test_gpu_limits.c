/* test_gpu_limits.c - the resident-grid table against the Programming Guide. */
#include "gl_gpu_limits.h"
#include "harness.h"

int main(void)
{
    /* The guide's "maximum number of resident grids per device" row, typed in
     * from the guide, column by column. */
    static const int table[][3] = {
        {3, 0, 16}, {3, 2, 4},   {3, 5, 32},   {3, 7, 32},  {5, 0, 32},   {5, 2, 32},   {5, 3, 16},
        {6, 0, 128}, {6, 1, 32}, {6, 2, 16},   {7, 0, 128}, {7, 2, 16},   {7, 5, 128},  {8, 0, 128},
        {8, 6, 128}, {8, 7, 128}, {8, 9, 128}, {9, 0, 128}, {10, 0, 128}, {10, 3, 128}, {12, 0, 128},
    };
    for (int i = 0; i < (int)(sizeof table / sizeof table[0]); i++) {
        char name[64];
        snprintf(name, sizeof name, "compute capability %d.%d holds %d resident grids", table[i][0], table[i][1],
                 table[i][2]);
        test_cond(name, gl_max_resident_grids(table[i][0], table[i][1]) == table[i][2]);
    }
    test_report();
}
