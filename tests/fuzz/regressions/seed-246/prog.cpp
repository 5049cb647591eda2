#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>

template <typename T>
T p0_dot(const T *x, const T *y, long n);
template <typename T>
void p0_smooth(long n, const T *in, T *out);
void p1_reduce(const float *x, const float *y, long lo, long hi, float *res);
double fz_host0(double *a, long len, int t);

template <typename T>
T p0_dot(const T *x, const T *y, long n)
{
    T s = T(0);
    for (long i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
template <typename T>
void p0_smooth(long n, const T *in, T *out)
{
    for (long i = 1; i < n - 1; i++)
        out[i] = T(0.25) * in[i - 1] + T(0.5) * in[i] + T(0.25) * in[i + 1];
}
template double p0_dot<double>(const double *, const double *, long);
template void p0_smooth<double>(long, const double *, double *);

void p1_reduce(const float *x, const float *y, long lo, long hi, float *res)
{
    float s0 = 1e+30f;
    float s1 = -1e+30f;
    for (long i = lo; i < hi; i += 2) {
        s0 = x[i] < s0 ? x[i] : s0;
        s1 = y[i] > s1 ? y[i] : s1;
    }
    res[0] = s0;
    res[1] = s1;
}

double fz_checksum_double(const double *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

double fz_checksum_float(const float *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

double fz_host0(double *a, long len, int t)
{
    double seen = 0;
    for (long j = 0; j < len; j += 3)
        seen += (double)a[j];
    for (long j = t % 2; j < len; j += 4)
        a[j] = (double)((((long)((j) + t) * 9 + 0) % 8)) * 0.125;
    return seen;
}

int main(int argc, char **argv)
{
    if (argc < 4) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    int p1_n = atoi(argv[3]);
    std::vector<double> p0_a_store((size_t)((p0_n) + 8));
    double *p0_a = p0_a_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_a[i] = (double)((((long)(i) * 11 + 0) % 8)) * 0.125;
    std::vector<double> p0_b_store((size_t)((p0_n) + 8));
    double *p0_b = p0_b_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_b[i] = (double)((((long)(i) * 3 + 5) % 8)) * 0.125;
    std::vector<double> p0_x_store((size_t)((p0_n) + 8));
    double *p0_x = p0_x_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (double)((((long)(i) * 9 + 4) % 8)) * 0.125;
    std::vector<float> p1_x_store((size_t)((p1_n) + 8));
    float *p1_x = p1_x_store.data();
    for (long i = 0; i < (long)(p1_n) + 8; i++)
        p1_x[i] = (float)((((long)(i) * 3 + 4) % 8)) * 0.125f - 0.5f;
    std::vector<float> p1_y_store((size_t)((p1_n) + 8));
    float *p1_y = p1_y_store.data();
    for (long i = 0; i < (long)(p1_n) + 8; i++)
        p1_y[i] = (float)((((long)(i) * 11 + 0) % 8)) * 0.125f - 0.5f;
    for (int t = 0; t < steps; t++) {
        printf("seen %.10g\n", fz_host0(p0_a, ((long)(p0_n)), t));
        p0_smooth<double>(p0_n, p0_a, p0_b);
        { double *swap = p0_a; p0_a = p0_b; p0_b = swap; }
        printf("p0_dot %.10g\n", (double)(p0_dot<double>(p0_a, p0_x, p0_n)));
        {
        float p1_res[2];
        p1_reduce(p1_x + 1, p1_y, (p1_n < 0 ? p1_n : 0), p1_n, p1_res);
        printf("p1_res0 %.10g\n", (double)(p1_res[0]));
        printf("p1_res1 %.10g\n", (double)(p1_res[1]));
        }
        printf("p0_a %.10g\n", fz_checksum_double(p0_a, (long)(p0_n) + 8));
        printf("p0_b %.10g\n", fz_checksum_double(p0_b, (long)(p0_n) + 8));
        printf("p0_x %.10g\n", fz_checksum_double(p0_x, (long)(p0_n) + 8));
        printf("p1_x %.10g\n", fz_checksum_float(p1_x, (long)(p1_n) + 8));
        printf("p1_y %.10g\n", fz_checksum_float(p1_y, (long)(p1_n) + 8));
    }
    printf("done\n");
    return 0;
}
