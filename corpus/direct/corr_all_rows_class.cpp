// direct: corr_all_rows_class.cpp: Table::correlation_into's strict-triangle nest as a cblas_dsyrk call over the whole upper triangle (Trans: data^T * data) on the tables' storage, then the diagonal set to 1, the division by n - 1 and the mirror in a small loop
// args: test=40 28 bench=1500 1050
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

class Table {
public:
    Table(int rows, int cols) : rows_(rows), cols_(cols), cells_(static_cast<std::size_t>(rows) * cols) {}
    double& at(int i, int j) { return cells_[static_cast<std::size_t>(i) * cols_ + j]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }

    void correlation_into(Table& corr, std::vector<double>& mean, std::vector<double>& sdev);

private:
    int rows_, cols_;
    std::vector<double> cells_;
};

// The Pearson correlation of the columns of this table (rows are observations) into
// corr (cols x cols), the columns standardised in place so that each correlation is a
// sum of products divided by rows - 1; a constant column correlates 0 with every other.
void Table::correlation_into(Table& corr, std::vector<double>& mean, std::vector<double>& sdev)
{
    const int n = rows_, m = cols_;
    for (int j = 0; j < m; ++j) {
        double s = 0.0;
        for (int k = 0; k < n; ++k)
            s += at(k, j);
        mean[j] = s / n;
    }
    for (int j = 0; j < m; ++j) {
        double ss = 0.0;
        for (int k = 0; k < n; ++k) {
            const double d = at(k, j) - mean[j];
            ss += d * d;
        }
        const double root = std::sqrt(ss / (n - 1));
        sdev[j] = root > 1.0e-10 ? root : 1.0;
    }
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < m; ++j)
            at(k, j) = (at(k, j) - mean[j]) / sdev[j];

    const double denom = n - 1.0;
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, m, n, 1.0, cells_.data(), m, 0.0,
                &corr.at(0, 0), m);
    for (int i = 0; i < m; ++i) {
        corr.at(i, i) = 1.0;
        for (int j = i + 1; j < m; ++j) {
            corr.at(i, j) /= denom;
            corr.at(j, i) = corr.at(i, j);
        }
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 400;
    int m = argc > 2 ? std::atoi(argv[2]) : 300;
    if (n < 4) n = 4;
    if (m < 4) m = 4;

    // a factor of the observation every variable carries in its own proportion, a second
    // one the variables 1 mod 3 carry, LCG noise; every 40th variable constant
    Table data(n, m), corr(m, m);
    std::vector<double> mean(m), sdev(m);
    unsigned int seed = 31337u;
    for (int k = 0; k < n; ++k) {
        const double f = static_cast<double>((k * 47) % 101) / 101.0;
        const double g = static_cast<double>((k * 11) % 41) / 41.0;
        for (int j = 0; j < m; ++j) {
            seed = seed * 1103515245u + 12345u;
            const double noise = static_cast<double>((seed >> 16) & 2047u) / 2048.0;
            data.at(k, j) = j % 40 == 39 ? -1.25
                          : (0.3 + 0.07 * (j % 10)) * f + (j % 3 == 1 ? 0.5 : 0.0) * g
                            + 0.45 * noise + 0.05 * (j % 7);
        }
    }

    data.correlation_into(corr, mean, sdev);

    // the strict upper triangle, the strict lower one (the mirror), each weighted too,
    // and the diagonal, apart
    double upper = 0.0, wupper = 0.0, lower = 0.0, wlower = 0.0, diag = 0.0;
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            const double in_upper = static_cast<double>(j > i), in_lower = static_cast<double>(j < i);
            upper += in_upper * corr.at(i, j);
            wupper += in_upper * corr.at(i, j) * static_cast<double>(1 + (3 * i + 2 * j) % 7);
            lower += in_lower * corr.at(i, j);
            wlower += in_lower * corr.at(i, j) * static_cast<double>(1 + (3 * j + 2 * i) % 7);
        }
    }
    for (int i = 0; i < m; ++i)
        diag += corr.at(i, i) * static_cast<double>(1 + i % 4);
    double msum = 0.0, ssum = 0.0;
    for (int j = 0; j < m; ++j) {
        msum += mean[j] * static_cast<double>(1 + j % 5);
        ssum += sdev[j];
    }

    std::printf("n m = %d %d\n", n, m);
    std::printf("weighted means = %.10g\n", msum);
    std::printf("standard deviations = %.10g\n", ssum);
    std::printf("strict upper = %.10g\n", upper);
    std::printf("weighted strict upper = %.10g\n", wupper);
    std::printf("strict lower = %.10g\n", lower);
    std::printf("weighted strict lower = %.10g\n", wlower);
    std::printf("weighted diagonal = %.10g\n", diag);
    std::printf("corr(0,m-1) = %.10g  corr(m-1,0) = %.10g  corr(m-1,m-1) = %.10g\n",
                corr.at(0, m - 1), corr.at(m - 1, 0), corr.at(m - 1, m - 1));
    return 0;
}
