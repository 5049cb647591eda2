// direct: gemm_matrix_class.cpp: Matrix::multiply's loop nest as a cblas_dgemm call
// args: test=40 bench=1000
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

class Matrix {
public:
    Matrix(std::size_t r, std::size_t c) : rows_(r), cols_(c), data_(r * c) {}
    double &operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
    double operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }
    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    void multiply(const Matrix &a, const Matrix &b);

private:
    std::size_t rows_, cols_;
    std::vector<double> data_;
};

/* *this = a * b (sizes are assumed to agree). */
void Matrix::multiply(const Matrix &a, const Matrix &b)
{
    const std::size_t m = a.rows(), n = b.cols(), p = a.cols();
    if (m > 0 && n > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, p,
                    1.0, a.data_.data(), a.cols_ > 0 ? a.cols_ : 1, b.data_.data(), b.cols_,
                    0.0, data_.data(), cols_);
}

int main(int argc, char **argv)
{
    std::size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
    if (n < 4) n = 4;
    const std::size_t p = n + n / 3;

    Matrix a(n, p), b(p, n), c(n, n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < p; ++k)
            a(i, k) = static_cast<double>((i * 2 + k * 5) % 9) / 9.0 - 0.5;
    for (std::size_t k = 0; k < p; ++k)
        for (std::size_t j = 0; j < n; ++j)
            b(k, j) = static_cast<double>((k + j * 4) % 11) / 11.0 - 0.5;

    c.multiply(a, b);

    double tr = 0.0, rs = 0.0, cs = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        tr += c(i, i);
        rs += c(n / 3, i);
        cs += c(i, n - 2);
    }
    std::printf("n p = %zu %zu\n", n, p);
    std::printf("trace = %.10g\n", tr);
    std::printf("row = %.10g\n", rs);
    std::printf("col = %.10g\n", cs);
    std::printf("c(1,3) = %.10g\n", c(1, 3));
    return 0;
}
