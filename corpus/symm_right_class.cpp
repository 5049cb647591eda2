// corpus: SYMM with A on the right, C = alpha*B*A + beta*C with A symmetric (n x n) read from its upper triangle, the columns of each row counting down (column j adds to the columns after it, finished by then), a Matrix class (std::vector storage, operator() access), a free function, the diagonal's term first in the final sum, repeated with C kept from call to call
// args: test=23 30 2 bench=600 700 10
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

// C <- alpha * B * A + beta * C, C and B m x n, A the n x n symmetric matrix of which only
// the upper triangle (the diagonal included) is read. In each row of C, column j (from the
// last) adds its part of the triangle to the columns after it and gives its own element
// the rest.
void symm_right_upper(double alpha, const Matrix& A, const Matrix& B, double beta, Matrix& C)
{
    const int m = C.rows(), n = C.cols();
    for (int i = 0; i < m; ++i) {              // expect: SYMM in symm_right_upper
        for (int j = n - 1; j >= 0; --j) {
            double temp2 = 0.0;
            for (int k = j + 1; k < n; ++k) {
                C(i, k) += alpha * B(i, j) * A(j, k);
                temp2 += B(i, k) * A(j, k);
            }
            C(i, j) = alpha * B(i, j) * A(j, j) + beta * C(i, j) + alpha * temp2;
        }
    }
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 200;
    int n = argc > 2 ? std::atoi(argv[2]) : 250;
    int reps = argc > 3 ? std::atoi(argv[3]) : 2;
    if (m < 1) m = 1;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    Matrix A(n, n), B(m, n), C(m, n);
    // the strictly upper triangle at most 1/n, the diagonal 1 to 2 (a row of the symmetric
    // matrix sums to less than 3); the strictly lower triangle holds a value the product
    // must not read
    for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
            A(j, k) = k > j ? static_cast<double>((j * 7 + k * 3) % 29 + 1) / (29.0 * n)
                    : k == j ? 1.0 + static_cast<double>(j % 4) * 0.25 : -17.5;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            B(i, j) = 0.3 + static_cast<double>((i * 3 + j * 8) % 19) * 0.04;
            C(i, j) = 0.75 + static_cast<double>((i * 2 + j) % 9) * 0.125;
        }

    // alpha * |A| < 1 and beta = 0.6: C stays bounded over the repetitions
    for (int r = 0; r < reps; ++r)
        symm_right_upper(0.3, A, B, 0.6, C);

    // C weighted by position, and one column
    const double* c = C.data();
    double total = 0.0, weighted = 0.0;
    for (long t = 0; t < static_cast<long>(m) * n; ++t) {   // expect: Reduction in main
        total += c[t];
        weighted += c[t] * static_cast<double>(1 + t % 13);
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
