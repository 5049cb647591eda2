#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

extern float p0_U[128][128];
extern float p0_V[128][128];
void p0_sweep(int rows, int cols, float (*out)[128], float (*in)[128]);

float p0_U[128][128];
float p0_V[128][128];
void p0_sweep(int rows, int cols, float (*out)[128], float (*in)[128])
{
    for (long i = 1; i < rows - 1; i++)
        for (long j = 1; j < cols - 1; j++)
            out[i][j] = 0.0625f * in[i - 1][j - 1] + 0.125f * in[i - 1][j] + 0.0625f * in[i - 1][j + 1] + 0.125f * in[i][j - 1] + 0.25f * in[i][j] + 0.125f * in[i][j + 1] + 0.0625f * in[i + 1][j - 1] + 0.125f * in[i + 1][j] + 0.0625f * in[i + 1][j + 1];
}

double fz_checksum_float(const float *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

float *fz_host0_array;
void fz_host0(long len, int t)
{
    for (long j = len - 1 - t % 2; j >= 0; j -= 5)
        fz_host0_array[j] = (float)((((long)((j) + t) * 3 + 4) % 8)) * 0.125f;
}

int main(int argc, char **argv)
{
    if (argc < 4) return 2;
    int steps = atoi(argv[1]);
    int p0_rows = atoi(argv[2]);
    int p0_cols = atoi(argv[3]);
    float *p0_a = &p0_U[0][0];
    float *p0_b = &p0_V[0][0];
    float (*p0_cur)[128] = p0_U, (*p0_nxt)[128] = p0_V;
    for (long i = 0; i < (long)(16376) + 8; i++)
        p0_a[i] = (float)((((long)(i) * 9 + 3) % 8)) * 0.125f;
    for (long i = 0; i < (long)(16376) + 8; i++)
        p0_b[i] = (float)((((long)(i) * 9 + 3) % 8)) * 0.125f;
    for (int t = 0; t < steps; t++) {
        p0_sweep(p0_rows, p0_cols, p0_nxt, p0_cur);
        { float (*swap)[128] = p0_cur; p0_cur = p0_nxt; p0_nxt = swap; }
        {
            fz_host0_array = p0_a;
            fz_host0(((long)(16376)), t);
        }
        printf("p0_a %.10g\n", fz_checksum_float(p0_a, (long)(16376) + 8));
        printf("p0_b %.10g\n", fz_checksum_float(p0_b, (long)(16376) + 8));
    }
    printf("done\n");
    return 0;
}
