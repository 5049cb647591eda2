#include "fuzz.h"

int p0_g_sum;
void p0_accumulate(const int *x, const int *w, int n, int *out)
{
    for (int i = 0; i < n; i++) {
        p0_g_sum += x[i] * w[i];
        out[i] = p0_g_sum;
    }
}

void p1_sweep(int rows, int cols, int ld, const float *in, float *out)
{
    for (long i = 1; i < rows - 1; i++)
        for (long j = 1; j < cols - 1; j++)
            out[i * ld + j] = 0.125f * in[(i - 1) * ld + j] + 0.125f * in[(i + 1) * ld + j] + 0.125f * in[(i) * ld + j - 1] + 0.125f * in[(i) * ld + j + 1] + 0.5f * in[(i) * ld + j];
}

long fz_checksum_int(const int *a, long n)
{
    long cs = 0;
    for (long i = 0; i < n; i++)
        cs += (long)a[i] * (long)(i % 7 + 1);
    return cs;
}

double fz_checksum_float(const float *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

int main(int argc, char **argv)
{
    if (argc < 6) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    int p1_rows = atoi(argv[3]);
    int p1_cols = atoi(argv[4]);
    int p1_extra = atoi(argv[5]);
    int *p0_x = (int *)malloc(sizeof(int) * (size_t)((p0_n) + 8));
    if (!p0_x) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (int)(((long)(i) * 5 + 2) % 8);
    int *p0_w = (int *)malloc(sizeof(int) * (size_t)((p0_n) + 8));
    if (!p0_w) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_w[i] = (int)(((long)(i) * 3 + 1) % 8);
    int *p0_out = (int *)malloc(sizeof(int) * (size_t)((p0_n) + 8));
    if (!p0_out) return 1;
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_out[i] = 0;
    float *p1_a = (float *)malloc(sizeof(float) * (size_t)((p1_rows * (p1_cols + p1_extra)) + 8));
    if (!p1_a) return 1;
    for (long i = 0; i < (long)(p1_rows * (p1_cols + p1_extra)) + 8; i++)
        p1_a[i] = (float)((((long)(i) * 11 + 5) % 8)) * 0.125f;
    float *p1_b = (float *)malloc(sizeof(float) * (size_t)((p1_rows * (p1_cols + p1_extra)) + 8));
    if (!p1_b) return 1;
    for (long i = 0; i < (long)(p1_rows * (p1_cols + p1_extra)) + 8; i++)
        p1_b[i] = (float)((((long)(i) * 3 + 5) % 8)) * 0.125f;
    for (int t = 0; t < steps; t++) {
        printf("seen %.10g\n", fz_host0(p0_w, ((long)(p0_n)), t));
        p0_g_sum = (int)(t % 3);
        p0_accumulate(p0_x, p0_w, p0_n, p0_out);
        printf("p0_g_sum %ld\n", (long)(p0_g_sum));
        if (t % 2 == 1) {
        p1_sweep(p1_rows, p1_cols, p1_cols + p1_extra, p1_a, p1_a);
        } else {
        p1_sweep(p1_rows, p1_cols, p1_cols + p1_extra, p1_a, p1_b);
        }
        printf("p0_x %ld\n", fz_checksum_int(p0_x, (long)(p0_n) + 8));
        printf("p0_w %ld\n", fz_checksum_int(p0_w, (long)(p0_n) + 8));
        printf("p0_out %ld\n", fz_checksum_int(p0_out, (long)(p0_n) + 8));
        printf("p1_a %.10g\n", fz_checksum_float(p1_a, (long)(p1_rows * (p1_cols + p1_extra)) + 8));
        printf("p1_b %.10g\n", fz_checksum_float(p1_b, (long)(p1_rows * (p1_cols + p1_extra)) + 8));
        printf("p0_out[part] %ld\n", fz_checksum_int(p0_out + t % 4, (long)(p0_n) / 2));
        if (t == 2) { printf("early\n"); return 0; }
    }
    printf("done\n");
    return 0;
}
