// corpus: Stencil, C++ grid class with operator() accessor, 2D 5-point grey-scale dilation using std::fmax, Grid::swap exchanges buffers
// args: test=40 8 bench=2048 200
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

class Grid {
public:
    Grid(int ny, int nx) : ny_(ny), nx_(nx), d_(static_cast<std::size_t>(ny) * nx) {}
    double &operator()(int i, int j) { return d_[static_cast<std::size_t>(i) * nx_ + j]; }
    double operator()(int i, int j) const { return d_[static_cast<std::size_t>(i) * nx_ + j]; }
    int ny() const { return ny_; }
    int nx() const { return nx_; }
    void swap(Grid &o) { std::swap(d_, o.d_); }

private:
    int ny_, nx_;
    std::vector<double> d_;
};

/* out = 0.9 * max(centre, N, S, E, W) + 0.1 * centre on the interior (a leaky dilation). */
void dilate(const Grid &in, Grid &out)
{
    const int ny = in.ny(), nx = in.nx();
    for (int i = 1; i < ny - 1; ++i) {        // expect: Stencil in dilate
        for (int j = 1; j < nx - 1; ++j) {
            double m = std::fmax(std::fmax(in(i - 1, j), in(i + 1, j)),
                                 std::fmax(in(i, j - 1), in(i, j + 1)));
            out(i, j) = 0.9 * std::fmax(m, in(i, j)) + 0.1 * in(i, j);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 256;
    int iters = argc > 2 ? std::atoi(argv[2]) : 8;
    if (n < 3) n = 3;
    if (iters < 1) iters = 1;

    Grid a(n, n), b(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            unsigned h = static_cast<unsigned>(i) * 2654435761u ^ static_cast<unsigned>(j) * 40503u;
            double v = (h % 97u == 0u) ? 10.0 : static_cast<double>(h % 7u) * 0.1;
            a(i, j) = v;
            b(i, j) = v;
        }

    for (int t = 0; t < iters; ++t) {
        dilate(a, b);
        a.swap(b);
    }

    double dg = 0.0, rw = 0.0, mx = 0.0;
    for (int k = 0; k < n; ++k) {              // expect: Reduction in main
        dg += a(k, k);
        rw += a(n / 2, k);
        mx = std::fmax(mx, a(k, n - 1 - k));
    }
    std::printf("n = %d iters = %d\n", n, iters);
    std::printf("diag = %.10g\n", dg);
    std::printf("row = %.10g\n", rw);
    std::printf("antidiag max = %.10g\n", mx);
    return 0;
}
