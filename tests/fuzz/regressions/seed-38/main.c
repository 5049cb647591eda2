#include "fuzz.h"

long fz_checksum_long(const long *a, long n)
{
    long cs = 0;
    for (long i = 0; i < n; i++)
        cs += (long)a[i] * (long)(i % 7 + 1);
    return cs;
}


long *fz_host1_array;
void fz_host1(long len, int t)
{
    for (long j = len - 1 - t % 2; j >= 0; j -= 5)
        fz_host1_array[j] = (long)(((long)((j) + t) * 11 + 1) % 8);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    long *p0_x = (long *)malloc(sizeof(long) * (size_t)((p0_n) + 8));
    if (!p0_x) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (long)(((long)(i) * 3 + 3) % 13);
    long *p0_y = (long *)malloc(sizeof(long) * (size_t)((p0_n) + 8));
    if (!p0_y) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_y[i] = (long)(((long)(i) * 11 + 5) % 13);
    for (int t = 0; t < steps; t++) {
        {
        long p0_r = p0_reduce(p0_x + 1, (t % 2 == 1 ? p0_x : p0_y), (p0_n < 1 ? p0_n : 1), p0_n);
        printf("p0_r %ld\n", (long)(p0_r));
        }
        for (long j = t % 3; j < ((long)(p0_n)); j += 5) p0_x[j] = (long)(((long)((j) + t) * 7 + 5) % 8);
        {
            fz_host1_array = p0_y;
            fz_host1(((long)(p0_n)), t);
        }
        printf("p0_x %ld\n", fz_checksum_long(p0_x, (long)(p0_n) + 8));
        printf("p0_y %ld\n", fz_checksum_long(p0_y, (long)(p0_n) + 8));
    }
    printf("done\n");
    return 0;
}
