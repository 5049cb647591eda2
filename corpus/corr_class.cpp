// corpus: SYRK, correlation matrix with a Matrix class (std::vector storage, operator() access): a member function takes column means and standard deviations (a zero one replaced by 1), standardises the matrix in place, then sums the strict upper triangle of data^T * data in a local, divides it by n and mirrors it into another Matrix; the diagonal is set to 1 by a loop of its own after the nest
// args: test=48 40 bench=1900 1300
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols) : rows_(rows), cols_(cols), v_(static_cast<std::size_t>(rows) * cols) {}
    double& operator()(int i, int j) { return v_[static_cast<std::size_t>(i) * cols_ + j]; }
    double operator()(int i, int j) const { return v_[static_cast<std::size_t>(i) * cols_ + j]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    const double* raw() const { return v_.data(); }

    void correlate_columns(Matrix& corr, std::vector<double>& mean, std::vector<double>& sd);

private:
    int rows_, cols_;
    std::vector<double> v_;
};

// The Pearson correlation of the columns of this matrix (rows are observations) into corr
// (cols x cols). The columns are standardised in place with the population standard
// deviation, so that each correlation is a sum of products over the observations divided
// by their number; a constant column is divided by 1 instead and correlates 0 with every
// other. mean and sd receive each column's mean and standard deviation.
void Matrix::correlate_columns(Matrix& corr, std::vector<double>& mean, std::vector<double>& sd)
{
    const int n = rows_, m = cols_;
    const double dn = static_cast<double>(n);
    for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int k = 0; k < n; ++k)            // expect: Reduction in Matrix::correlate_columns
            s += (*this)(k, j);
        mean[j] = s / dn;
    }
    for (int j = 0; j < m; ++j) {
        const double mu = mean[j];
        double ss = 0.0;
        for (int k = 0; k < n; ++k) {          // expect: Reduction in Matrix::correlate_columns
            const double d = (*this)(k, j) - mu;
            ss += d * d;
        }
        const double root = std::sqrt(ss / dn);
        sd[j] = root > 1.0e-10 ? root : 1.0;
    }
    for (int k = 0; k < n; ++k)   // expect: Map in Matrix::correlate_columns
        for (int j = 0; j < m; ++j)
            (*this)(k, j) = ((*this)(k, j) - mean[j]) / sd[j];

    for (int i = 0; i < m - 1; ++i) {          // expect: SYRK in Matrix::correlate_columns
        for (int j = i + 1; j < m; ++j) {
            double s = 0.0;
            for (int k = 0; k < n; ++k)
                s += (*this)(k, i) * (*this)(k, j);
            corr(i, j) = s / dn;
            corr(j, i) = corr(i, j);
        }
    }
    for (int i = 0; i < m; ++i)
        corr(i, i) = 1.0;
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 400;
    int m = argc > 2 ? std::atoi(argv[2]) : 300;
    if (n < 4) n = 4;
    if (m < 2) m = 2;

    // a factor shared by the variables of an observation, a second one that only the
    // even variables carry, and LCG noise; every 50th variable is constant
    Matrix data(n, m), corr(m, m);
    std::vector<double> mean(m), sd(m);
    unsigned int seed = 4242u;
    for (int k = 0; k < n; ++k) {
        const double f = static_cast<double>((k * 59) % 113) / 113.0;
        const double g = static_cast<double>((k * 23) % 37) / 37.0;
        for (int j = 0; j < m; ++j) {
            seed = seed * 1664525u + 1013904223u;
            const double noise = static_cast<double>((seed >> 18) & 1023u) / 1024.0;
            data(k, j) = j % 50 == 49 ? 0.75
                       : (0.3 + 0.1 * (j % 8)) * f + (j % 2 == 0 ? 0.6 : 0.0) * g
                         + 0.5 * noise + 0.25 * (j % 6);
        }
    }

    data.correlate_columns(corr, mean, sd);

    // the strict upper triangle (weighted too), the strict lower one (the mirror,
    // weighted too) and the diagonal, apart
    const double* c = corr.raw();
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0;
    for (long t = 0; t < static_cast<long>(m) * m; ++t) {   // expect: Reduction in main
        const long i = t / m, j = t % m;
        const double in_upper = static_cast<double>(j > i), in_lower = static_cast<double>(j < i);
        upper += in_upper * c[t];
        wupper += in_upper * c[t] * static_cast<double>(1 + (i + 2 * j) % 6);
        lower += in_lower * c[t];
        wlower += in_lower * c[t] * static_cast<double>(1 + (j + 2 * i) % 6);
    }
    double diag = 0.0;
    for (int i = 0; i < m; ++i)                // expect: Reduction in main
        diag += corr(i, i) * static_cast<double>(1 + i % 5);
    double msum = 0.0, sdsum = 0.0;
    for (int j = 0; j < m; ++j) {              // expect: Reduction in main
        msum += mean[j] * static_cast<double>(1 + j % 3);
        sdsum += sd[j];
    }

    std::printf("n m = %d %d\n", n, m);
    std::printf("weighted means = %.10g\n", msum);
    std::printf("standard deviations = %.10g\n", sdsum);
    std::printf("strict upper = %.10g\n", upper);
    std::printf("weighted strict upper = %.10g\n", wupper);
    std::printf("strict lower = %.10g\n", lower);
    std::printf("weighted strict lower = %.10g\n", wlower);
    std::printf("weighted diagonal = %.10g\n", diag);
    std::printf("corr(1,m-2) = %.10g  corr(m-2,1) = %.10g  corr(m/3,m/2) = %.10g\n",
                corr(1, m - 2), corr(m - 2, 1), corr(m / 3, m / 2));
    return 0;
}
