// corpus: GEMM, float, C++ Grid class over a raw new[] buffer with a row stride (operator() returning references), member function adding half the product of two grids: `(*this)(i,j) = 0.5f * t + (*this)(i,j)`
// args: test=48 bench=900
#include <cstdio>
#include <cstdlib>

class Grid {
public:
    Grid(int r, int c) : nr(r), nc(c), ld(c + 2), cells(new float[static_cast<std::size_t>(r) * (c + 2)]())
    {
    }
    ~Grid() { delete[] cells; }
    Grid(const Grid &) = delete;
    Grid &operator=(const Grid &) = delete;
    int rows() const { return nr; }
    int cols() const { return nc; }
    float &operator()(int i, int j) { return cells[static_cast<std::size_t>(i) * ld + j]; }
    const float &operator()(int i, int j) const { return cells[static_cast<std::size_t>(i) * ld + j]; }
    void add_half_product(const Grid &a, const Grid &b);

private:
    int nr, nc, ld;
    float *cells;
};

/* *this += 0.5 * a * b (rows padded by two unused columns). */
void Grid::add_half_product(const Grid &a, const Grid &b)
{
    const int inner = a.cols();
    for (int i = 0; i < nr; i++) {                  // expect: GEMM in Grid::add_half_product
        for (int j = 0; j < nc; j++) {
            float t = 0.0f;
            for (int k = 0; k < inner; k++)
                t += a(i, k) * b(k, j);
            (*this)(i, j) = 0.5f * t + (*this)(i, j);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 256;
    if (n < 4) n = 4;
    const int m = n + n / 8, p = n - 3;

    Grid a(m, p), b(p, n), c(m, n);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            a(i, k) = static_cast<float>((i * 3 + k * 5) % 11) / 11.0f - 0.5f;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            b(k, j) = static_cast<float>((k + j * 7) % 9) / 9.0f - 0.4f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c(i, j) = static_cast<float>((i * 2 + j) % 6) * 0.5f - 1.25f;

    c.add_half_product(a, b);
    c.add_half_product(a, b);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {               // expect: Reduction in main
            sum += c(i, j);
            wsum += static_cast<double>(c(i, j)) * ((i + j) % 5 + 1);
        }
    }
    std::printf("m n p = %d %d %d\n", m, n, p);
    std::printf("sum = %.6e\n", sum);
    std::printf("wsum = %.6e\n", wsum);
    std::printf("c(2,1) = %.6e\n", static_cast<double>(c(2, 1)));
    std::printf("c(m-1,n-1) = %.6e\n", static_cast<double>(c(m - 1, n - 1)));
    return 0;
}
