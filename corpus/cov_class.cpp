// corpus: SYRK, covariance matrix with a Matrix class (std::vector storage, operator() access): column means, centring, then the upper triangle of data^T * data summed in a local, divided by (n - 1) and mirrored
// args: test=48 40 bench=1900 1300
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

// The covariance of the columns of data (rows are observations) into cov (cols x cols):
// the observations are centred into a copy, then each element of the upper triangle is a
// sum over them divided by n - 1, stored again at its mirror.
void covariance(const Matrix& data, Matrix& cov)
{
    const int n = data.rows(), m = data.cols();
    const double denom = static_cast<double>(n) - 1.0;
    Matrix centred(n, m);
    for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int k = 0; k < n; ++k)            // expect: Reduction in covariance
            s += data(k, j);
        const double mean = s / n;
        for (int k = 0; k < n; ++k)   // expect: Map in covariance
            centred(k, j) = data(k, j) - mean;
    }

    for (int i = 0; i < m; ++i) {              // expect: SYRK in covariance
        for (int j = i; j < m; ++j) {
            double s = 0.0;
            for (int k = 0; k < n; ++k)
                s += centred(k, i) * centred(k, j);
            cov(i, j) = s / denom;
            cov(j, i) = cov(i, j);
        }
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 400;
    int m = argc > 2 ? std::atoi(argv[2]) : 300;
    if (n < 4) n = 4;
    if (m < 2) m = 2;

    // two factors shared by the variables of an observation, in proportions that vary
    // with the variable, plus a pattern of its own
    Matrix data(n, m), cov(m, m);
    for (int k = 0; k < n; ++k) {
        const double f = static_cast<double>((k * 53) % 97) / 97.0;
        const double g = static_cast<double>((k * 19) % 31) / 31.0;
        for (int j = 0; j < m; ++j)
            data(k, j) = f + static_cast<double>(j % 4) * 0.25 * g
                       + 0.2 * static_cast<double>((k * 7 + j * 11) % 23) / 23.0 + 0.5 * (j % 6);
    }

    covariance(data, cov);

    // the upper triangle (weighted too), the strictly lower one (the mirror), the trace
    const double* c = cov.data();
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0;
    for (long t = 0; t < static_cast<long>(m) * m; ++t) {   // expect: Reduction in main
        const long i = t / m, j = t % m;
        const double in_upper = static_cast<double>(j >= i);
        upper += in_upper * c[t];
        wupper += in_upper * c[t] * static_cast<double>(1 + (i + 2 * j) % 6);
        lower += (1.0 - in_upper) * c[t];
        wlower += (1.0 - in_upper) * c[t] * static_cast<double>(1 + (j + 2 * i) % 6);
    }
    double trace = 0.0;
    for (int i = 0; i < m; ++i)                // expect: Reduction in main
        trace += cov(i, i);

    std::printf("n m = %d %d\n", n, m);
    std::printf("upper = %.10g\n", upper);
    std::printf("weighted upper = %.10g\n", wupper);
    std::printf("strictly lower = %.10g\n", lower);
    std::printf("weighted strictly lower = %.10g\n", wlower);
    std::printf("trace = %.10g\n", trace);
    std::printf("cov(0,m-1) = %.10g  cov(m-1,0) = %.10g  cov(m/3,m/2) = %.10g\n",
                cov(0, m - 1), cov(m - 1, 0), cov(m / 3, m / 2));
    return 0;
}
