// TRMM in the corpus's other styles: C++ classes whose fields LLVM loads again inside the
// row loop, under the test that skips the sum on the last row (ikj_nonunit_class,
// ikj_alpha_dense, whose B data pointer the scaling loop reads apart from the sum's), and
// double ** row tables, which the loops applying T's diagonal and alpha read through
// loads of their own (ikj_nonunit_rows, ikj_alpha_rows). A row multiplied by A's first
// column instead of its diagonal is no TRMM (the guard must decline).
//
// Arguments: m n seed mode. Modes: 0 separate arrays; 1 A is B (the classes and the tables
// alike: B square then); 2 A's rows a column to the right of B's (tables; the classes as
// 1); 3 B's rows unevenly spaced (tables; the classes as 0).
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
    std::vector<double>& data() { return data_; }

private:
    int rows_, cols_;
    std::vector<double> data_;
};

struct Dense {
    int rows, cols;
    std::vector<double> v;
    Dense(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * c) {}
};

// U * B, U upper with its diagonal, applied first in a loop of its own
void ikj_nonunit_class(const Matrix& A, Matrix& B)
{
    const int m = B.rows(), n = B.cols();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j)
            B(i, j) *= A(i, i);
        for (int k = i + 1; k < m; ++k)
            for (int j = 0; j < n; ++j)
                B(i, j) += A(i, k) * B(k, j);
    }
}

// alpha * L * B, L unit lower, the rows counting down, the row scaled after its sum
void ikj_alpha_dense(double alpha, const Dense& A, Dense& B)
{
    const int m = B.rows, n = B.cols;
    for (int i = m - 1; i >= 0; --i) {
        for (int k = 0; k < i; ++k)
            for (int j = 0; j < n; ++j)
                B.v[i * n + j] += A.v[i * m + k] * B.v[k * n + j];
        for (int j = 0; j < n; ++j)
            B.v[i * n + j] *= alpha;
    }
}

// alpha * L * B with the columns outermost, L unit lower, the rows counting down
void cols_unit_class(double alpha, const Matrix& A, Matrix& B)
{
    const int m = B.rows(), n = B.cols();
    for (int j = 0; j < n; ++j) {
        for (int i = m - 1; i >= 0; --i) {
            double s = B(i, j);
            for (int k = 0; k < i; ++k)
                s += A(i, k) * B(k, j);
            B(i, j) = alpha * s;
        }
    }
}

// row i multiplied by A(i, 0), not its diagonal: no TRMM (the guard must decline)
void ikj_first_column_class(const Matrix& A, Matrix& B)
{
    const int m = B.rows(), n = B.cols();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j)
            B(i, j) *= A(i, 0);
        for (int k = i + 1; k < m; ++k)
            for (int j = 0; j < n; ++j)
                B(i, j) += A(i, k) * B(k, j);
    }
}

// L * B, L lower with its diagonal (read through the table), the rows counting down
void ikj_nonunit_rows(int m, int n, double **A, double **B)
{
    for (int i = m - 1; i >= 0; i--) {
        for (int j = 0; j < n; j++)
            B[i][j] = A[i][i] * B[i][j];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i][j] += A[i][k] * B[k][j];
    }
}

// alpha * U * B, U unit upper, the row scaled after its sum
void ikj_alpha_rows(int m, int n, double alpha, double **A, double **B)
{
    for (int i = 0; i < m; i++) {
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i][j] += A[i][k] * B[k][j];
        for (int j = 0; j < n; j++)
            B[i][j] = alpha * B[i][j];
    }
}

// U * B with the columns outermost, U unit upper
void cols_unit_rows(int m, int n, double **A, double **B)
{
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double s = B[i][j];
            for (int k = i + 1; k < m; k++)
                s += A[i][k] * B[k][j];
            B[i][j] = s;
        }
    }
}

// row i multiplied by A[i][0], not its diagonal: no TRMM (the guard must decline)
void ikj_first_column_rows(int m, int n, double **A, double **B)
{
    for (int i = m - 1; i >= 0; i--) {
        for (int j = 0; j < n; j++)
            B[i][j] = A[i][0] * B[i][j];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i][j] += A[i][k] * B[k][j];
    }
}

static unsigned long long state;

static double next_value()
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>((state >> 33) % 2001) / 1000.0 - 1.0;
}

static void fill(std::vector<double>& values, int m, double scale)
{
    for (double& x : values)
        x = next_value() * scale / (m + 1);
}

static void print(const std::vector<double>& values)
{
    for (std::size_t t = 0; t < values.size(); t++)
        std::printf("[%zu] = %.12g\n", t, values[t]);
}

static void run_class(int kernel, int m, int n, int mode)
{
    const bool same = mode == 1 || mode == 2;
    const int cols = same ? m : n;
    Matrix A(m, m), B(m, cols);
    fill(A.data(), m, 1.0);
    fill(B.data(), 1, 1.0);
    const Matrix& read = same ? B : A;
    if (kernel == 0)
        ikj_nonunit_class(read, B);
    else if (kernel == 2)
        cols_unit_class(0.75, read, B);
    else
        ikj_first_column_class(read, B);
    print(B.data());
}

static void run_dense(int m, int n, int mode)
{
    const bool same = mode == 1 || mode == 2;
    Dense A(m, m), B(m, same ? m : n);
    fill(A.v, m, 1.0);
    fill(B.v, 1, 1.0);
    ikj_alpha_dense(1.25, same ? B : A, B);
    print(B.v);
}

static void run_rows(int kernel, int m, int n, int mode)
{
    const int ld = (m > n ? m : n) + 2;
    std::vector<double> block(static_cast<std::size_t>(2 * m + 1) * ld + 2);
    fill(block, m, 1.0);
    std::vector<double*> a(m > 0 ? m : 1), b(m > 0 ? m : 1);
    for (int i = 0; i < m; i++) {
        b[i] = block.data() + static_cast<std::size_t>(i) * ld + (mode == 3 ? i % 2 : 0);
        a[i] = mode == 1 ? b[i] : mode == 2 ? b[i] + 1
                                            : block.data() + static_cast<std::size_t>(m + 1 + i) * ld;
    }
    if (kernel == 4)
        ikj_nonunit_rows(m, n, a.data(), b.data());
    else if (kernel == 5)
        ikj_alpha_rows(m, n, 0.625, a.data(), b.data());
    else if (kernel == 6)
        cols_unit_rows(m, n, a.data(), b.data());
    else
        ikj_first_column_rows(m, n, a.data(), b.data());
    print(block);
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 5;
    int n = argc > 2 ? std::atoi(argv[2]) : 4;
    state = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
    int mode = argc > 4 ? std::atoi(argv[4]) : 0;
    for (int kernel = 0; kernel < 8; kernel++) {
        std::printf("kernel %d\n", kernel);
        std::fprintf(stderr, "kernel %d\n", kernel);  // the runtime's reports follow
        if (kernel == 1)
            run_dense(m, n, mode);
        else if (kernel < 4)
            run_class(kernel, m, n, mode);
        else
            run_rows(kernel, m, n, mode);
    }
    return 0;
}
