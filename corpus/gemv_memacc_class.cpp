// corpus: GEMV, C++ Matrix class over std::vector<double> with a const operator() accessor, free function mult summing into y[i] (memory accumulator), rectangular
// args: test=40 2 bench=2000 1000
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols)
        : nrows(rows), ncols(cols), data(static_cast<std::size_t>(rows) * cols, 0.0) {}
    double operator()(int i, int j) const { return data[static_cast<std::size_t>(i) * ncols + j]; }
    void set(int i, int j, double v) { data[static_cast<std::size_t>(i) * ncols + j] = v; }
    int rows() const { return nrows; }
    int cols() const { return ncols; }

private:
    int nrows, ncols;
    std::vector<double> data;
};

/* y = A x; y[i] is cleared, then takes the products one by one. */
void mult(const Matrix &A, const std::vector<double> &x, std::vector<double> &y)
{
    const int m = A.rows(), n = A.cols();
    for (int i = 0; i < m; i++) {              // expect: GEMV in mult
        y[i] = 0;
        for (int j = 0; j < n; j++)
            y[i] += A(i, j) * x[j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 300;
    int reps = argc > 2 ? std::atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    const int m = n - n / 8;

    Matrix A(m, n);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            A.set(i, j, static_cast<double>((i * 13 + j * 2) % 19) / 19.0 - 0.35);
    std::vector<double> x(n), y(m);
    for (int j = 0; j < n; j++)
        x[j] = 1.0 + static_cast<double>(j % 10) * 0.1;

    for (int r = 0; r < reps; r++)
        mult(A, x, y);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < m; i++) {              // expect: Reduction in main
        sum += y[i];
        sq += y[i] * y[i];
    }
    std::printf("m n = %d %d reps = %d\n", m, n, reps);
    std::printf("sum = %.10g\n", sum);
    std::printf("sq = %.10g\n", sq);
    std::printf("y[1] = %.10g\n", y[1]);
    std::printf("y[m-2] = %.10g\n", y[m - 2]);
    return 0;
}
