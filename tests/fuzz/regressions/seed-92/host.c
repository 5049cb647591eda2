#include "fuzz.h"

double fz_host0(int *a, long len, int t)
{
    double seen = 0;
    for (long j = 0; j < len; j += 3)
        seen += (double)a[j];
    for (long j = t % 2; j < len; j += 4)
        a[j] = (int)(((long)((j) + t) * 3 + 2) % 8);
    return seen;
}

