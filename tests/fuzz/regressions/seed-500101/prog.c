#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

void p0_trip(int m, int n, float alpha, float l[m][m], float b[m][n]);
void p1_trip(int m, int n, double alpha, double l[m][m], double b[m][n]);

void p0_trip(int m, int n, float alpha, float l[m][m], float b[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < i; k++)
                b[i][j] += l[k][i] * b[k][j];
            b[i][j] = alpha * b[i][j];
        }
}

void p1_trip(int m, int n, double alpha, double l[m][m], double b[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = i + 1; k < m; k++)
                b[i][j] += l[k][i] * b[k][j];
            b[i][j] = alpha * b[i][j];
        }
}

double fz_checksum_float(const float *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

double fz_checksum_double(const double *a, long n)
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
    int p0_m = atoi(argv[2]);
    int p0_n = atoi(argv[3]);
    int p1_m = atoi(argv[4]);
    int p1_n = atoi(argv[5]);
    float *p0_l = (float *)malloc(sizeof(float) * (size_t)((p0_m * p0_m + 1) + 8));
    if (!p0_l) return 1;
    for (long i = 0; i < (long)(p0_m * p0_m + 1) + 8; i++)
        p0_l[i] = (float)((((long)(i) * 9 + 2) % 8)) * 0.125f;
    float *p0_b = (float *)malloc(sizeof(float) * (size_t)((p0_m * p0_n + 1) + 8));
    if (!p0_b) return 1;
    for (long i = 0; i < (long)(p0_m * p0_n + 1) + 8; i++)
        p0_b[i] = (float)((((long)(i) * 3 + 4) % 8)) * 0.125f;
    double *p1_l = (double *)malloc(sizeof(double) * (size_t)((p1_m * p1_m + 1) + 8));
    if (!p1_l) return 1;
    for (long i = 0; i < (long)(p1_m * p1_m + 1) + 8; i++)
        p1_l[i] = (double)((((long)(i) * 11 + 0) % 8)) * 0.125;
    double *p1_b = (double *)malloc(sizeof(double) * (size_t)((p1_m * p1_n + 1) + 8));
    if (!p1_b) return 1;
    for (long i = 0; i < (long)(p1_m * p1_n + 1) + 8; i++)
        p1_b[i] = (double)((((long)(i) * 7 + 6) % 8)) * 0.125;
    for (int t = 0; t < steps; t++) {
        p0_trip(p0_m, p0_n, 1.5f, (float (*)[p0_m])p0_l, (float (*)[p0_n])p0_b);
        p1_trip(p1_m, p1_n, 1.0, (double (*)[p1_m])p1_l, (double (*)[p1_n])p1_b);
        for (long j = t % 3; j < ((long)(p0_m * p0_m + 1)); j += 5) p0_l[j] = (float)((((long)((j) + t) * 7 + 2) % 8)) * 0.125f;
        {
            FILE *f = tmpfile();
            if (f) {
                size_t cnt = (size_t)((long)(p0_m * p0_m + 1));
                if (cnt > 1 && fwrite(p0_l + 1, sizeof(float), cnt - 1, f) == cnt - 1) {
                    rewind(f);
                    if (fread(p0_l, sizeof(float), cnt - 1, f) != cnt - 1)
                        printf("short read\n");
                }
                fclose(f);
            }
        }
        printf("p0_l %.10g\n", fz_checksum_float(p0_l, (long)(p0_m * p0_m + 1) + 8));
        printf("p0_b %.10g\n", fz_checksum_float(p0_b, (long)(p0_m * p0_n + 1) + 8));
        printf("p1_l %.10g\n", fz_checksum_double(p1_l, (long)(p1_m * p1_m + 1) + 8));
        printf("p1_b %.10g\n", fz_checksum_double(p1_b, (long)(p1_m * p1_n + 1) + 8));
        printf("p0_l[part] %.10g\n", fz_checksum_float(p0_l + t % 4, (long)(p0_m * p0_m + 1) / 2));
    }
    printf("done\n");
    return 0;
}
