// corpus: TRSV, a Matrix class (std::vector storage, operator() access) factored by Cholesky, then many right-hand sides solved forward and backward with inner loops counting down (j = i - 1 .. 0, and j = n - 1 .. i + 1), divided by the factor's diagonal
// args: test=37 4 bench=900 3000
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_(static_cast<std::size_t>(rows) * cols) {}
    double& operator()(int i, int j) { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    double operator()(int i, int j) const { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    int rows() const { return rows_; }

private:
    int rows_, cols_;
    std::vector<double> data_;
};

// A = L L^T by rows, L lower with a positive diagonal; L's upper triangle is left as is.
static void cholesky(const Matrix& A, Matrix& L)
{
    const int n = A.rows();
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double s = A(i, j);
            for (int k = 0; k < j; ++k)        // expect: Reduction in cholesky
                s -= L(i, k) * L(j, k);
            L(i, j) = i == j ? std::sqrt(s) : s / L(j, j);
        }
}

// L y = b, then L^T x = y (row i of L^T is column i of L), each row's products taken
// from the nearest solved row outwards.
void solve_nearest_first(const Matrix& L, const std::vector<double>& b, std::vector<double>& y,
                         std::vector<double>& x)
{
    const int n = L.rows();
    for (int i = 0; i < n; ++i) {              // expect: TRSV in solve_nearest_first
        double s = b[i];
        for (int j = i - 1; j >= 0; --j)
            s -= L(i, j) * y[j];
        y[i] = s / L(i, i);
    }
    for (int i = n - 1; i >= 0; --i) {         // expect: TRSV in solve_nearest_first
        double s = y[i];
        for (int j = n - 1; j > i; --j)
            s -= L(j, i) * x[j];
        x[i] = s / L(i, i);
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 300;
    int reps = argc > 2 ? std::atoi(argv[2]) : 100;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    // symmetric and strictly diagonally dominant (diagonal 2.5 to 3.5, the rest at most
    // 1/n): positive definite. L's strictly upper triangle holds a value never read.
    Matrix A(n, n), L(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            int lo = i < j ? i : j, hi = i < j ? j : i;
            A(i, j) = i == j ? 2.5 + static_cast<double>(i % 5) * 0.25
                             : static_cast<double>((lo * 13 + hi * 7) % 23 + 1) / (23.0 * n);
            L(i, j) = j > i ? -5.0e4 : 0.0;
        }
    cholesky(A, L);

    std::vector<double> b(n), y(n), x(n);
    double total = 0.0, weighted = 0.0;
    for (int r = 0; r < reps; ++r) {
        for (int i = 0; i < n; ++i)
            b[i] = 1.0 + static_cast<double>((i * (r % 7 + 3) + r) % 9) * 0.25;
        solve_nearest_first(L, b, y, x);
        for (int i = 0; i < n; ++i) {          // expect: Reduction in main
            total += x[i];
            weighted += x[i] * static_cast<double>(1 + (i + r) % 6);
        }
    }

    double ysum = 0.0;
    for (int i = 0; i < n; ++i)                // expect: Reduction in main
        ysum += y[i];

    std::printf("n reps = %d %d\n", n, reps);
    std::printf("sum of x = %.10g\n", total);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("last y sum = %.10g\n", ysum);
    std::printf("x[0] = %.10g  x[n/2] = %.10g  x[n-1] = %.10g\n", x[0], x[n / 2], x[n - 1]);
    return 0;
}
