// direct: gemm_class_update.cpp: add_half_product's and Matrix::blend's loop nests as cblas_dgemm calls
// args: test=40 bench=1100
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

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
    if (c.rows() > 0 && c.cols() > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c.rows(), c.cols(), a.cols(), 0.5,
                    &a(0, 0), a.cols() > 0 ? a.cols() : 1, &b(0, 0), b.cols(), 1.0, &c(0, 0),
                    c.cols());
}

/* *this = alpha * a * b + beta * *this. */
void Matrix::blend(double alpha, const Matrix &a, const Matrix &b, double beta)
{
    Matrix &c = *this;
    if (nrow > 0 && ncol > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nrow, ncol, a.cols(), alpha,
                    &a(0, 0), a.cols() > 0 ? a.cols() : 1, &b(0, 0), b.cols(), beta, &c(0, 0),
                    ncol);
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
        for (int j = 0; j < n; j++) {
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
