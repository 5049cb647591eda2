// corpus: GEMM, C++ Mat class over a raw buffer owned by a std::unique_ptr (operator() returning references), the product inlined into main: `c(i,j) = 0.5 * t + 0.75 * c(i,j)` with constant scales, then a checksum
// args: test=36 bench=1200
#include <cstdio>
#include <cstdlib>
#include <memory>

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
    for (int i = 0; i < c.n_rows; i++) {            // expect: GEMM in main
        for (int j = 0; j < c.n_cols; j++) {
            double t = 0.0;
            for (int k = 0; k < a.n_cols; k++)
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5 * t + 0.75 * c(i, j);
        }
    }

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {               // expect: Reduction in main
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
