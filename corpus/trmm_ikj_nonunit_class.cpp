// corpus: TRMM, in-place B = U*B in i-k-j order with U upper triangular (A's diagonal used), a Matrix class (std::vector storage, operator() access): each row of B first multiplied by its diagonal element, then the rows below it added, the rows counting up
// args: test=35 30 bench=2000 1900
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

// B <- U * B in place, U the upper triangle of the m x m matrix A (diagonal included, the
// strictly lower triangle never read), B m x n. Row i is scaled by A(i, i), then adds
// A(i, k) times each row k below it, which the rows counting up have not updated yet.
void trmm_ikj_upper(const Matrix& A, Matrix& B)
{
    const int m = B.rows(), n = B.cols();
    for (int i = 0; i < m; ++i) {              // expect: TRMM in trmm_ikj_upper
        for (int j = 0; j < n; ++j)
            B(i, j) *= A(i, i);
        for (int k = i + 1; k < m; ++k)
            for (int j = 0; j < n; ++j)
                B(i, j) += A(i, k) * B(k, j);
    }
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 300;
    int n = argc > 2 ? std::atoi(argv[2]) : 270;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    Matrix A(m, m), B(m, n);
    // the diagonal between 0.5 and 1.5, the strictly upper triangle of either sign at
    // most 1/m; the lower triangle holds values the product must not read
    for (int i = 0; i < m; ++i)
        for (int k = 0; k < m; ++k)
            A(i, k) = k > i ? (static_cast<double>((i * 5 + k * 12) % 29) - 11.0) / (29.0 * m)
                    : k == i ? 0.5 + static_cast<double>(i % 8) * 0.125 : 95.0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            B(i, j) = 1.25 + static_cast<double>((i * 3 + j * 10) % 23) * 0.03125;

    trmm_ikj_upper(A, B);

    // B weighted by position, and its last row
    const double* b = B.data();
    double total = 0.0, weighted = 0.0;
    for (long t = 0; t < static_cast<long>(m) * n; ++t) {   // expect: Reduction in main
        total += b[t];
        weighted += b[t] * static_cast<double>(1 + t % 9);
    }
    double last_row = 0.0;
    for (int j = 0; j < n; ++j)                // expect: Reduction in main
        last_row += B(m - 1, j) * static_cast<double>(1 + j % 5);

    std::printf("m n = %d %d\n", m, n);
    std::printf("sum = %.10g\n", total);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("last row = %.10g\n", last_row);
    std::printf("B(0,0) = %.10g  B(m/2,n/3) = %.10g  B(m-1,n-1) = %.10g\n",
                B(0, 0), B(m / 2, n / 3), B(m - 1, n - 1));
    return 0;
}
