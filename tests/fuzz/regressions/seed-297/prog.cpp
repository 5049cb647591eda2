#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>

extern int p0_g_sum;
void p0_accumulate(const int *x, const int *w, int n);

int p0_g_sum;
void p0_accumulate(const int *x, const int *w, int n)
{
    for (int i = 0; i < n; i++) {
        p0_g_sum += x[i] * w[i];
    }
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
        fz_host0_array[j] = (int)(((long)((j) + t) * 7 + 5) % 8);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    std::vector<int> p0_x_store((size_t)((p0_n) + 8));
    int *p0_x = p0_x_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (int)(((long)(i) * 9 + 2) % 8);
    std::vector<int> p0_w_store((size_t)((p0_n) + 8));
    int *p0_w = p0_w_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_w[i] = (int)(((long)(i) * 3 + 3) % 8);
    for (int t = 0; t < steps; t++) {
        p0_g_sum = (int)(t % 3);
        p0_accumulate(p0_x, p0_w, p0_n);
        printf("p0_g_sum %ld\n", (long)(p0_g_sum));
        {
            fz_host0_array = p0_w;
            fz_host0(((long)(p0_n)), t);
        }
        printf("p0_x %ld\n", fz_checksum_int(p0_x, (long)(p0_n) + 8));
        printf("p0_w %ld\n", fz_checksum_int(p0_w, (long)(p0_n) + 8));
        printf("p0_x[part] %ld\n", fz_checksum_int(p0_x + t % 4, (long)(p0_n) / 2));
    }
    printf("done\n");
    return 0;
}
