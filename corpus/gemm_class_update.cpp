// corpus: GEMM, C++ Matrix class (std::vector storage, operator() returning references), free function adding half the product to C as `c(i,j) = 0.5 * t + c(i,j)`, and a member function scaling C by beta as `c(i,j) = alpha * t + beta * c(i,j)`
// args: test=40 bench=1100
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
    void blend(double alpha, const Matrix &a, const Matrix &b, double beta);

private:
    int nrow, ncol;
    std::vector<double> store;
};

/* c += 0.5 * a * b, the sum for each element kept in a local. */
void add_half_product(const Matrix &a, const Matrix &b, Matrix &c)
{
    for (int i = 0; i < c.rows(); i++) {            // expect: GEMM in add_half_product
        for (int j = 0; j < c.cols(); j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5 * t + c(i, j);
        }
    }
}

/* *this = alpha * a * b + beta * *this. */
void Matrix::blend(double alpha, const Matrix &a, const Matrix &b, double beta)
{
    Matrix &c = *this;
    for (int i = 0; i < nrow; i++) {                // expect: GEMM in Matrix::blend
        for (int j = 0; j < ncol; j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = alpha * t + beta * c(i, j);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    const int m = n - n / 5, p = n + 3;

    Matrix a(m, p), b(p, n), c(m, n), w(p, p);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            a(i, k) = static_cast<double>((i * 7 + k * 3) % 17) / 17.0 - 0.45;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            b(k, j) = static_cast<double>((k * 5 + j * 11) % 13) / 13.0 - 0.55;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c(i, j) = static_cast<double>((3 * i + j) % 8) * 0.25 - 1.0;

    add_half_product(a, b, c);
    Matrix d(m, n);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            d(i, j) = static_cast<double>((i + 2 * j) % 5) - 2.0;
    d.blend(-0.7, a, b, 1.25);

    double sc = 0.0, sd = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {               // expect: Reduction in main
            sc += c(i, j) * static_cast<double>((i + 3 * j) % 7 - 3);
            sd += d(i, j);
        }
    }
    std::printf("m n p = %d %d %d\n", m, n, p);
    std::printf("sum c = %.10g\n", sc);
    std::printf("sum d = %.10g\n", sd);
    std::printf("c(1,2) = %.10g\n", c(1, 2));
    std::printf("d(m-1,n-1) = %.10g\n", d(m - 1, n - 1));
    return 0;
}
