// corpus: near-miss GEMM, C++ Matrix class (std::vector storage, operator() returning references): half a product added to C's next column, and to another matrix
// args: test=40 bench=900
// near-miss: `c(i,j) = 0.5 * t + c(i,j+1)` adds the product to the old value of another element of C (the next column, not yet written along the row), and `c(i,j) = 0.5 * t + d(i,j)` to an element of a different matrix: neither is C = alpha A B + beta C
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int r, int c) : nrow(r), ncol(c), store(static_cast<std::size_t>(r) * c, 0.0) {}
    int rows() const { return nrow; }
    int cols() const { return ncol; }
    double &operator()(int i, int j) { return store[static_cast<std::size_t>(i) * ncol + j]; }
    const double &operator()(int i, int j) const
    {
        return store[static_cast<std::size_t>(i) * ncol + j];
    }

private:
    int nrow, ncol;
    std::vector<double> store;
};

/* c(i,j) <- 0.5 * (a b)(i,j) + c(i,j+1): C has one spare column on the right. */
void add_half_shifted(const Matrix &a, const Matrix &b, Matrix &c)
{
    for (int i = 0; i < c.rows(); i++) {            // expect-none: GEMM
        for (int j = 0; j + 1 < c.cols(); j++) {    // expect-none: GEMV
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)      // expect: Reduction in add_half_shifted
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5 * t + c(i, j + 1);
        }
    }
}

/* c <- 0.5 * a b + d: the sum goes to c, the old values come from d. */
void add_half_to_other(const Matrix &a, const Matrix &b, const Matrix &d, Matrix &c)
{
    for (int i = 0; i < c.rows(); i++) {            // expect-none: GEMM
        for (int j = 0; j < c.cols(); j++) {        // expect-none: GEMV
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)      // expect: Reduction in add_half_to_other
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5 * t + d(i, j);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    const int m = n + 2, p = n - 1;

    Matrix a(m, p), b(p, n + 1), c(m, n + 1), d(m, n + 1), e(m, n + 1);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            a(i, k) = static_cast<double>((i * 5 + k * 2) % 13) / 13.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j <= n; j++)
            b(k, j) = static_cast<double>((k * 3 + j * 7) % 11) / 11.0 - 0.45;
    for (int i = 0; i < m; i++)
        for (int j = 0; j <= n; j++) {
            c(i, j) = static_cast<double>((i + 2 * j) % 9) * 0.25 - 1.0;
            d(i, j) = static_cast<double>((2 * i + j) % 5) - 2.0;
        }

    add_half_shifted(a, b, c);
    add_half_to_other(a, b, d, e);

    double sc = 0.0, se = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j <= n; j++) {              // expect: Reduction in main
            sc += c(i, j) * static_cast<double>((i + j) % 4 + 1);
            se += e(i, j);
        }
    }
    std::printf("m n p = %d %d %d\n", m, n, p);
    std::printf("sum c = %.10g\n", sc);
    std::printf("sum e = %.10g\n", se);
    std::printf("c(1,1) = %.10g\n", c(1, 1));
    std::printf("e(m-1,n-1) = %.10g\n", e(m - 1, n - 1));
    return 0;
}
