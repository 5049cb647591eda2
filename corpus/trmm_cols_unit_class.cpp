// corpus: TRMM, in-place B = alpha*L*B with the columns outermost, L unit lower triangular (A's diagonal taken as one, never read), a Matrix class (std::vector storage, operator() access): each column of B its own product, its rows counting down, the sum in a local from B's own element
// args: test=31 26 bench=1500 1400
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

// B <- alpha * L * B in place, L the unit lower triangle of the m x m matrix A (its diagonal
// taken as one and not read, its strictly upper triangle never read), B m x n. Column by
// column: row i adds the rows above it in the column, which the rows counting down have
// not updated yet; row 0 adds nothing.
void trmm_cols_lower_unit(double alpha, const Matrix& A, Matrix& B)
{
    const int m = B.rows(), n = B.cols();
    for (int j = 0; j < n; ++j) {              // expect: TRMM in trmm_cols_lower_unit
        for (int i = m - 1; i >= 0; --i) {
            double s = B(i, j);
            for (int k = 0; k < i; ++k)
                s += A(i, k) * B(k, j);
            B(i, j) = alpha * s;
        }
    }
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 300;
    int n = argc > 2 ? std::atoi(argv[2]) : 280;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    Matrix A(m, m), B(m, n);
    // the strictly lower triangle of either sign, at most 1/m; the diagonal and the upper
    // triangle hold values the product must not read
    unsigned int seed = 777u;
    for (int i = 0; i < m; ++i) {
        for (int k = 0; k < m; ++k) {
            seed = seed * 1103515245u + 12345u;
            double r = static_cast<double>((seed >> 16) & 1023u) / 1024.0;
            A(i, k) = k < i ? (r - 0.4) / m : k == i ? -33.0 : 120.0 + r;
        }
    }
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            B(i, j) = 0.75 + static_cast<double>((i * 4 + j * 7) % 19) * 0.05;

    trmm_cols_lower_unit(0.8, A, B);

    // B weighted by position, and its last column
    const double* b = B.data();
    double total = 0.0, weighted = 0.0;
    for (long t = 0; t < static_cast<long>(m) * n; ++t) {   // expect: Reduction in main
        total += b[t];
        weighted += b[t] * static_cast<double>(1 + t % 13);
    }
    double last_col = 0.0;
    for (int i = 0; i < m; ++i)                // expect: Reduction in main
        last_col += B(i, n - 1) * static_cast<double>(1 + i % 4);

    std::printf("m n = %d %d\n", m, n);
    std::printf("sum = %.10g\n", total);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("last column = %.10g\n", last_col);
    std::printf("B(0,0) = %.10g  B(m/2,n/3) = %.10g  B(m-1,n-1) = %.10g\n",
                B(0, 0), B(m / 2, n / 3), B(m - 1, n - 1));
    return 0;
}
