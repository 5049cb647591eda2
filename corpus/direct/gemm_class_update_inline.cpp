// direct: gemm_class_update_inline.cpp: main's product loop nest as a cblas_dgemm call
// args: test=36 bench=1200
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <cblas.h>

struct Mat {
    int n_rows, n_cols;
    std::unique_ptr<double[]> buf;

    Mat(int r, int c) : n_rows(r), n_cols(c), buf(new double[static_cast<std::size_t>(r) * c]()) {}
    double &operator()(int i, int j) { return buf[static_cast<std::size_t>(i) * n_cols + j]; }
    const double &operator()(int i, int j) const { return buf[static_cast<std::size_t>(i) * n_cols + j]; }
};

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    const int m = n + 5, p = n - n / 6;

    Mat a(m, p), b(p, n), c(m, n);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            a(i, k) = static_cast<double>((i * 9 + k * 4) % 15) / 15.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            b(k, j) = static_cast<double>((k * 2 + j * 3) % 10) / 10.0 - 0.45;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c(i, j) = static_cast<double>((i + 4 * j) % 7) * 0.5 - 1.5;

    /* c = 0.5 * a * b + 0.75 * c */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c.n_rows, c.n_cols, a.n_cols, 0.5,
                &a(0, 0), a.n_cols, &b(0, 0), b.n_cols, 0.75, &c(0, 0), c.n_cols);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            sum += c(i, j);
            wsum += c(i, j) * static_cast<double>((5 * i + j) % 9 - 4);
        }
    }
    std::printf("m n p = %d %d %d\n", m, n, p);
    std::printf("sum = %.10g\n", sum);
    std::printf("wsum = %.10g\n", wsum);
    std::printf("c(0,1) = %.10g\n", c(0, 1));
    std::printf("c(m-1,n-2) = %.10g\n", c(m - 1, n - 2));
    return 0;
}
