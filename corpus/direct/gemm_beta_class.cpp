// direct: gemm_beta_class.cpp: gemm's loop nest as a cblas_dgemm call
// args: test=40 bench=1800
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

class Matrix {
public:
    int rows, cols;

    Matrix(int r, int c) : rows(r), cols(c), data(static_cast<std::size_t>(r) * c, 0.0) {}
    double &operator()(int i, int j) { return data[static_cast<std::size_t>(i) * cols + j]; }
    const double &operator()(int i, int j) const { return data[static_cast<std::size_t>(i) * cols + j]; }

private:
    std::vector<double> data;
};

/* C = alpha * A * B + beta * C (A is rows x k, B is k x cols, C is rows x cols). */
void gemm(double alpha, const Matrix &A, const Matrix &B, double beta, Matrix &C)
{
    if (C.rows > 0 && C.cols > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, C.rows, C.cols, A.cols,
                    alpha, &A(0, 0), A.cols > 0 ? A.cols : 1, &B(0, 0), B.cols,
                    beta, &C(0, 0), C.cols);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    const int m = n + n / 4, p = n - 2;

    Matrix A(m, p), B(p, n), C(m, n);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            A(i, k) = static_cast<double>((i * 4 + k * 9) % 14) / 14.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            B(k, j) = static_cast<double>((k * 7 + j * 2) % 12) / 12.0 - 0.4;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            C(i, j) = static_cast<double>((i + j) % 6) - 2.5;

    gemm(0.8, A, B, 0.3, C);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            sum += C(i, j);
            wsum += C(i, j) * static_cast<double>((2 * i + j) % 9 - 4);
        }
    }
    std::printf("m n p = %d %d %d\n", m, n, p);
    std::printf("sum = %.10g\n", sum);
    std::printf("wsum = %.10g\n", wsum);
    std::printf("C(1,2) = %.10g\n", C(1, 2));
    std::printf("C(m-1,n-1) = %.10g\n", C(m - 1, n - 1));
    return 0;
}
