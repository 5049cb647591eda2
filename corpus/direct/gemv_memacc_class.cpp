// direct: gemv_memacc_class.cpp: mult's loop nest as a cblas_dgemv call (Matrix gains a raw() accessor for it)
// args: test=40 2 bench=2000 1000
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

class Matrix {
public:
    Matrix(int rows, int cols)
        : nrows(rows), ncols(cols), data(static_cast<std::size_t>(rows) * cols, 0.0) {}
    double operator()(int i, int j) const { return data[static_cast<std::size_t>(i) * ncols + j]; }
    void set(int i, int j, double v) { data[static_cast<std::size_t>(i) * ncols + j] = v; }
    int rows() const { return nrows; }
    int cols() const { return ncols; }
    const double *raw() const { return data.data(); }

private:
    int nrows, ncols;
    std::vector<double> data;
};

/* y = A x. */
void mult(const Matrix &A, const std::vector<double> &x, std::vector<double> &y)
{
    const int m = A.rows(), n = A.cols();
    if (m > 0 && n > 0)
        cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, 1.0, A.raw(), n, x.data(), 1, 0.0,
                    y.data(), 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 300;
    int reps = argc > 2 ? std::atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    const int m = n - n / 8;

    Matrix A(m, n);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            A.set(i, j, static_cast<double>((i * 13 + j * 2) % 19) / 19.0 - 0.35);
    std::vector<double> x(n), y(m);
    for (int j = 0; j < n; j++)
        x[j] = 1.0 + static_cast<double>(j % 10) * 0.1;

    for (int r = 0; r < reps; r++)
        mult(A, x, y);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < m; i++) {
        sum += y[i];
        sq += y[i] * y[i];
    }
    std::printf("m n = %d %d reps = %d\n", m, n, reps);
    std::printf("sum = %.10g\n", sum);
    std::printf("sq = %.10g\n", sq);
    std::printf("y[1] = %.10g\n", y[1]);
    std::printf("y[m-2] = %.10g\n", y[m - 2]);
    return 0;
}
