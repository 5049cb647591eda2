// corpus: SYMM, C = alpha*A*B + beta*C with A symmetric read from its lower triangle, written by rows of A, a Matrix class (std::vector storage, operator() access), a free function, the diagonal's term first in the final sum, repeated with C kept from call to call
// args: test=27 34 2 bench=700 600 10
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

// C <- alpha * A * B + beta * C, C and B m x n, A the m x m symmetric matrix of which only
// the lower triangle (the diagonal included) is read. Row i adds its part of the triangle
// to the rows above it and gives its own element the rest.
void symm_lower(double alpha, const Matrix& A, const Matrix& B, double beta, Matrix& C)
{
    const int m = C.rows(), n = C.cols();
    for (int i = 0; i < m; ++i) {              // expect: SYMM in symm_lower
        for (int j = 0; j < n; ++j) {
            double temp2 = 0.0;
            for (int k = 0; k < i; ++k) {
                C(k, j) += alpha * B(i, j) * A(i, k);
                temp2 += B(k, j) * A(i, k);
            }
            C(i, j) = alpha * B(i, j) * A(i, i) + beta * C(i, j) + alpha * temp2;
        }
    }
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 250;
    int n = argc > 2 ? std::atoi(argv[2]) : 200;
    int reps = argc > 3 ? std::atoi(argv[3]) : 2;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;

    Matrix A(m, m), B(m, n), C(m, n);
    // the strictly lower triangle at most 1/m, the diagonal 1 to 2 (a row of the symmetric
    // matrix sums to less than 3); the strictly upper triangle holds a value the product
    // must not read
    for (int i = 0; i < m; ++i)
        for (int k = 0; k < m; ++k)
            A(i, k) = k < i ? static_cast<double>((i * 11 + k * 5) % 23 + 1) / (23.0 * m)
                    : k == i ? 1.0 + static_cast<double>(i % 4) * 0.25 : -12.5;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            B(i, j) = 0.3 + static_cast<double>((i * 2 + j * 9) % 17) * 0.04;
            C(i, j) = 0.75 + static_cast<double>((i * 5 + j) % 7) * 0.125;
        }

    // alpha * |A| < 1 and beta = 0.6: C stays bounded over the repetitions
    for (int r = 0; r < reps; ++r)
        symm_lower(0.3, A, B, 0.6, C);

    // C weighted by position, and one column
    const double* c = C.data();
    double total = 0.0, weighted = 0.0;
    for (long t = 0; t < static_cast<long>(m) * n; ++t) {   // expect: Reduction in main
        total += c[t];
        weighted += c[t] * static_cast<double>(1 + t % 11);
    }
    double last_col = 0.0;
    for (int i = 0; i < m; ++i)                // expect: Reduction in main
        last_col += C(i, n - 1) * static_cast<double>(1 + i % 3);

    std::printf("m n reps = %d %d %d\n", m, n, reps);
    std::printf("sum = %.10g\n", total);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("last column = %.10g\n", last_col);
    std::printf("C(0,0) = %.10g  C(m/2,n/3) = %.10g  C(m-1,n-1) = %.10g\n",
                C(0, 0), C(m / 2, n / 3), C(m - 1, n - 1));
    return 0;
}
