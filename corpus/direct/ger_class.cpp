// direct: ger_class.cpp: deflate's loop nest as a cblas_dger call
// args: test=48 3 bench=2000 1200
#include <cstdio>
#include <cblas.h>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), data_((size_t)rows * cols) {}
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    double& operator()(int i, int j) { return data_[(size_t)i * cols_ + j]; }
    double operator()(int i, int j) const { return data_[(size_t)i * cols_ + j]; }
private:
    int rows_, cols_;
    std::vector<double> data_;
};

/* A -= sigma * u v^T */
void deflate(Matrix& A, double sigma, const std::vector<double>& u, const std::vector<double>& v)
{
    if (A.rows() > 0 && A.cols() > 0)
        cblas_dger(CblasRowMajor, A.rows(), A.cols(), -sigma, u.data(), 1, v.data(), 1,
                   &A(0, 0), A.cols());
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 200;
    int reps = argc > 2 ? std::atoi(argv[2]) : 3;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;
    Matrix A(n, n);
    std::vector<double> u(n), v(n);
    for (int i = 0; i < n; ++i) {
        u[i] = static_cast<double>((i * 7) % 19) / 19.0 - 0.5;
        v[i] = static_cast<double>((i * 3) % 23) / 23.0 - 0.45;
        for (int j = 0; j < n; ++j)
            A(i, j) = static_cast<double>((i * 5 + j) % 31) / 31.0;
    }
    for (int r = 0; r < reps; ++r)
        deflate(A, r % 2 ? -0.125 : 0.125, u, v);

    double total = 0.0, diagonal = 0.0;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j)
            total += A(i, j) * static_cast<double>((i + j) % 5);
        diagonal += A(i, i);                    // (the diagonal is summed by the row loop)
    }
    std::printf("n reps = %d %d\n", n, reps);
    std::printf("total = %.10g\n", total);
    std::printf("diagonal = %.10g\n", diagonal);
    std::printf("A(n-1,0) = %.10g\n", A(n - 1, 0));
    return 0;
}
