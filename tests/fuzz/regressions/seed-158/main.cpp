#include "fuzz.h"

double fz_checksum_double(const double *a, long n)
{
    double cs = 0;
    for (long i = 0; i < n; i++)
        cs += (double)a[i] * (double)(i % 7 + 1);
    return cs;
}

struct fz_host0_holder { double *data; long len; };

double *fz_host1_array;
void fz_host1(long len, int t)
{
    for (long j = len - 1 - t % 2; j >= 0; j -= 5)
        fz_host1_array[j] = (double)((((long)((j) + t) * 3 + 4) % 8)) * 0.125;
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    std::vector<double> p0_x_store((size_t)((p0_n) + 8));
    double *p0_x = p0_x_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (double)((((long)(i) * 3 + 0) % 8)) * 0.125;
    std::vector<double> p0_y_store((size_t)((p0_n) + 8));
    double *p0_y = p0_y_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_y[i] = (double)((((long)(i) * 7 + 3) % 8)) * 0.125;
    for (int t = 0; t < steps; t++) {
        {
        double p0_r = p0_reduce(p0_x + 0, p0_y, (p0_n < 0 ? p0_n : 0), p0_n);
        printf("p0_r %.10g\n", (double)(p0_r));
        }
        {
            struct fz_host0_holder h = { p0_x, ((long)(p0_n)) };
            for (long j = h.len - 1; j >= 0; j -= 7)
                h.data[j] = (double)((((long)((j) + t) * 7 + 5) % 8)) * 0.125;
        }
        {
            fz_host1_array = p0_y;
            fz_host1(((long)(p0_n)), t);
        }
        printf("p0_x %.10g\n", fz_checksum_double(p0_x, (long)(p0_n) + 8));
        printf("p0_y %.10g\n", fz_checksum_double(p0_y, (long)(p0_n) + 8));
    }
    printf("done\n");
    return 0;
}
