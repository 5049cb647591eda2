#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

void p0_reduce(const int *x, const int *y, size_t lo, size_t hi, int *res);

void p0_reduce(const int *x, const int *y, size_t lo, size_t hi, int *res)
{
    int s0 = 0;
    int s1 = 0;
    int s2 = -1000000;
    for (size_t i = lo; i < hi; i++) {
        s0 += x[i];
        s1 += x[i] * y[i];
        s2 = x[i] > s2 ? x[i] : s2;
    }
    res[0] = s0;
    res[1] = s1;
    res[2] = s2;
}

long fz_checksum_int(const int *a, long n)
{
    long cs = 0;
    for (long i = 0; i < n; i++)
        cs += (long)a[i] * (long)(i % 7 + 1);
    return cs;
}

int *fz_host0_array;
void fz_host0(long len, int t)
{
    for (long j = len - 1 - t % 2; j >= 0; j -= 5)
        fz_host0_array[j] = (int)(((long)((j) + t) * 7 + 0) % 8);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    int *p0_x = (int *)malloc(sizeof(int) * (size_t)((p0_n) + 8));
    if (!p0_x) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (int)(((long)(i) * 11 + 5) % 13);
    int *p0_y = (int *)malloc(sizeof(int) * (size_t)((p0_n) + 8));
    if (!p0_y) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_y[i] = (int)(((long)(i) * 9 + 0) % 13);
    for (int t = 0; t < steps; t++) {
        {
        int p0_res[3];
        p0_reduce(p0_x + 2, p0_x + 1, (p0_n < 0 ? p0_n : 0), p0_n, p0_res);
        printf("p0_res0 %ld\n", (long)(p0_res[0]));
        printf("p0_res1 %ld\n", (long)(p0_res[1]));
        printf("p0_res2 %ld\n", (long)(p0_res[2]));
        }
        {
            fz_host0_array = p0_y;
            fz_host0(((long)(p0_n)), t);
        }
        printf("p0_x %ld\n", fz_checksum_int(p0_x, (long)(p0_n) + 8));
        printf("p0_y %ld\n", fz_checksum_int(p0_y, (long)(p0_n) + 8));
    }
    printf("done\n");
    return 0;
}
