// direct: gemv_matrix.cpp: Dense::apply's loop nest as a cblas_dgemv call
// args: test=64 2 bench=2500 150
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

class Dense {
public:
    Dense(int r, int c) : nr(r), nc(c), v(static_cast<std::size_t>(r) * c) {}
    double &operator()(int i, int j) { return v[static_cast<std::size_t>(i) * nc + j]; }
    double operator()(int i, int j) const { return v[static_cast<std::size_t>(i) * nc + j]; }
    int rows() const { return nr; }
    int cols() const { return nc; }
    void apply(const std::vector<double> &x, std::vector<double> &y) const;

private:
    int nr, nc;
    std::vector<double> v;
};

/* y = A x, y has rows() entries, x has cols() entries. */
void Dense::apply(const std::vector<double> &x, std::vector<double> &y) const
{
    if (nr > 0 && nc > 0)
        cblas_dgemv(CblasRowMajor, CblasNoTrans, nr, nc, 1.0, v.data(), nc,
                    x.data(), 1, 0.0, y.data(), 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 400;
    int reps = argc > 2 ? std::atoi(argv[2]) : 5;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    const int m = n + 7;

    Dense a(m, n);
    std::vector<double> x(n), y(m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            a(i, j) = static_cast<double>((3 * i + 8 * j) % 25) / 25.0 - 0.5;
    for (int j = 0; j < n; ++j)
        x[j] = 1.0 - static_cast<double>(j % 6) / 3.0;

    for (int r = 0; r < reps; ++r)
        a.apply(x, y);

    double sum = 0.0, l1 = 0.0;
    for (int i = 0; i < m; ++i) {
        sum += y[i];
        l1 += y[i] < 0.0 ? -y[i] : y[i];
    }
    std::printf("m n = %d %d reps = %d\n", m, n, reps);
    std::printf("sum = %.10g\n", sum);
    std::printf("l1 = %.10g\n", l1);
    std::printf("y[2] = %.10g\n", y[2]);
    return 0;
}
