// direct: trmm_class.cpp: trmm_upper_unit's loop nest as a cblas_dtrmm call (Left, Upper, NoTrans, Unit)
// args: test=30 45 bench=1750 1750
#include <cstdio>
#include <cstdlib>
#include <cblas.h>
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

// B <- alpha * U * B in place, U the unit upper triangle of the m x m matrix A (its diagonal
// taken as one and not read, its strictly lower triangle never read), B m x n. Row i reads
// the rows below it, which the rows counting up have not updated yet.
void trmm_upper_unit(double alpha, const Matrix& A, Matrix& B)
{
    const int m = B.rows(), n = B.cols();
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasUnit, m, n,
                    alpha, A.data(), A.cols(), B.data(), B.cols());
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 300;
    int n = argc > 2 ? std::atoi(argv[2]) : 280;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    Matrix A(m, m), B(m, n);
    // the strictly upper triangle at most 1/m (a row of U sums to less than 2); the diagonal
    // and the lower triangle hold values the product must not read
    for (int i = 0; i < m; ++i)
        for (int k = 0; k < m; ++k)
            A(i, k) = k > i ? static_cast<double>((i * 11 + k * 5) % 23 + 1) / (23.0 * m)
                    : k == i ? 40.0 : -1.5;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            B(i, j) = 0.3 + static_cast<double>((i * 2 + j * 9) % 17) * 0.04;

    trmm_upper_unit(0.9, A, B);

    // B weighted by position, and one row
    const double* b = B.data();
    double total = 0.0, weighted = 0.0;
    for (long t = 0; t < static_cast<long>(m) * n; ++t) {
        total += b[t];
        weighted += b[t] * static_cast<double>(1 + t % 11);
    }
    double first_row = 0.0;
    for (int j = 0; j < n; ++j)
        first_row += B(0, j) * static_cast<double>(1 + j % 3);

    std::printf("m n = %d %d\n", m, n);
    std::printf("sum = %.10g\n", total);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("first row = %.10g\n", first_row);
    std::printf("B(0,0) = %.10g  B(m/2,n/3) = %.10g  B(m-1,n-1) = %.10g\n",
                B(0, 0), B(m / 2, n / 3), B(m - 1, n - 1));
    return 0;
}
