// corpus: GEMV, two row dot products over one shared inner loop combined after it (y = alpha A x + beta B x, gesummv), double, a Matrix class (std::vector storage, rows x cols, operator() access) and std::vector vectors by reference, A x summed in a local and B x kept in y[i] (cleared, updated at every trip, then overwritten by the combination), a free-function kernel, inside a damped iteration on a rectangular pair of matrices
// args: test=29 41 3 bench=2400 2000 450
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

private:
    int rows_, cols_;
    std::vector<double> data_;
};

// y = alpha A x + beta B x, A and B rows x cols (the same shape), x of length cols.
void gesummv(double alpha, const Matrix& A, double beta, const Matrix& B,
             const std::vector<double>& x, std::vector<double>& y)
{
    const int rows = A.rows(), cols = A.cols();
    for (int i = 0; i < rows; ++i) {           // expect: GEMV in gesummv
        double s = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < cols; ++j) {
            s += A(i, j) * x[j];
            y[i] += B(i, j) * x[j];
        }
        y[i] = alpha * s + beta * y[i];
    }
}

int main(int argc, char** argv)
{
    int rows = argc > 1 ? std::atoi(argv[1]) : 300;
    int cols = argc > 2 ? std::atoi(argv[2]) : 250;
    int iters = argc > 3 ? std::atoi(argv[3]) : 10;
    if (rows < 2) rows = 2;
    if (cols < 2) cols = 2;
    if (iters < 1) iters = 1;

    // positive entries: A from a small LCG, B a smooth band
    Matrix A(rows, cols), B(rows, cols);
    unsigned state = 4242u;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            state = state * 1664525u + 1013904223u;
            A(i, j) = 0.3 + static_cast<double>((state >> 20) % 100) / 125.0;
            int d = (i * cols) / rows - j;
            B(i, j) = 0.1 + (d > -12 && d < 12 ? 0.9 : 0.0) + static_cast<double>((i + j) % 5) / 20.0;
        }

    std::vector<double> x(cols), y(rows);
    for (int j = 0; j < cols; ++j)
        x[j] = static_cast<double>(1 + j % 6) / 6.0;

    // x is pulled a little towards the mean of y (scaled) after each product
    double mean = 0.0;
    for (int it = 0; it < iters; ++it) {
        gesummv(0.8, A, 1.7, B, x, y);
        double sy = 0.0;
        for (int i = 0; i < rows; ++i)         // expect: Reduction in main
            sy += y[i];
        mean = sy / rows;
        for (int j = 0; j < cols; ++j)
            x[j] = 0.9 * x[j] + 0.1 * y[j % rows] / mean;
    }

    double wy = 0.0, top = 0.0;
    for (int i = 0; i < rows; ++i) {           // expect: Reduction in main
        wy += y[i] * (1 + i % 7);
        top = y[i] > top ? y[i] : top;
    }
    double sx = 0.0;
    for (int j = 0; j < cols; ++j)             // expect: Reduction in main
        sx += x[j];
    std::printf("rows cols = %d %d iters = %d\n", rows, cols, iters);
    std::printf("y mean = %.10g weighted = %.10g largest = %.10g\n", mean, wy / rows, top);
    std::printf("x sum = %.10g\n", sx);
    std::printf("y[0] = %.10g y[rows-1] = %.10g x[cols-1] = %.10g\n", y[0], y[rows - 1], x[cols - 1]);
    return 0;
}
