// corpus: SYR2K, upper triangle of C = alpha*A*B^T + alpha*B*A^T + beta*C with a Matrix class (std::vector storage, operator() access), dot-product form, both products added into one sum
// args: test=40 32 bench=1500 1900
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(static_cast<std::size_t>(rows) * cols) {}
    double& operator()(int i, int j) { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    double operator()(int i, int j) const { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    const double* data() const { return data_.data(); }
    double* data() { return data_.data(); }

private:
    int rows_, cols_;
    std::vector<double> data_;
};

// The upper triangle (j >= i, diagonal included) of C = alpha * (A * B^T + B * A^T) + beta * C,
// A and B n x k, C n x n; the strictly lower triangle of C is neither read nor written.
void syr2k_upper(double alpha, const Matrix& A, const Matrix& B, double beta, Matrix& C)
{
    const int n = C.rows(), k = A.cols();
    for (int i = 0; i < n; ++i) {              // expect: SYR2K in syr2k_upper
        for (int j = i; j < n; ++j) {
            double s = 0.0;
            for (int p = 0; p < k; ++p)
                s += A(i, p) * B(j, p) + B(i, p) * A(j, p);
            C(i, j) = alpha * s + beta * C(i, j);
        }
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200;
    int k = argc > 2 ? std::atoi(argv[2]) : 150;
    if (n < 4) n = 4;
    if (k < 1) k = 1;

    Matrix A(n, k), B(n, k), C(n, n);
    for (int i = 0; i < n; ++i)
        for (int p = 0; p < k; ++p) {
            A(i, p) = static_cast<double>((i * 5 + p * 7) % 13) * 0.05 - 0.2;
            B(i, p) = static_cast<double>((i * 2 + p * 3) % 11) * 0.06 - 0.25;
        }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            C(i, j) = static_cast<double>((i * 7 + j) % 10) * 0.1 + 0.05;

    syr2k_upper(0.6, A, B, -0.5, C);

    // the upper triangle (weighted too) and the strictly lower one (unchanged) separately
    const double* c = C.data();
    double upper = 0.0, wupper = 0.0, lower = 0.0;
    for (long t = 0; t < static_cast<long>(n) * n; ++t) {   // expect: Reduction in main
        double in_upper = static_cast<double>(t % n >= t / n);
        upper += in_upper * c[t];
        wupper += in_upper * c[t] * static_cast<double>(1 + t % 6);
        lower += (1.0 - in_upper) * c[t];
    }
    std::printf("n k = %d %d\n", n, k);
    std::printf("upper = %.10g\n", upper);
    std::printf("weighted upper = %.10g\n", wupper);
    std::printf("lower = %.10g\n", lower);
    std::printf("C(0,n-1) = %.10g  C(n/3,n/2) = %.10g  C(n-1,n-1) = %.10g\n",
                C(0, n - 1), C(n / 3, n / 2), C(n - 1, n - 1));
    return 0;
}
