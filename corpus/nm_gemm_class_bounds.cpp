// corpus: near-miss GEMM, nests through C++ classes with bounds read from the objects, shaped like gemm_class_bounds.cpp and gemm_batched_vector_sums.cpp, that compute something else or write an object's size field inside the nest
// args: test=4 6 3 bench=200 300 40
// near-miss: multiply_growing writes the result's row count inside the nest (c.nr = i + 1 after each row: the product's rows and a store into the object, not a product alone); contract_plus_row starts each sum from the row's own element instead of zero (A <- A + A W, not A W)
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Matrix {
    int nr, nc;
    std::vector<double> d;
    Matrix(int r, int c) : nr(r), nc(c), d((std::size_t)r * c) {}
    double &operator()(int i, int j) { return d[i * nc + j]; }
    double operator()(int i, int j) const { return d[i * nc + j]; }
};

struct Tensor {
    int nr, nq, np;
    std::vector<double> d;
    Tensor(int r, int q, int p) : nr(r), nq(q), np(p), d((std::size_t)r * q * p) {}
    double &at(int r, int q, int p) { return d[(r * nq + q) * np + p]; }
};

/* c = a * b row by row, c's row count following the rows done. */
void multiply_growing(const Matrix &a, const Matrix &b, Matrix &c)
{
    for (int i = 0; i < a.nr; i++) {                    // expect-none: GEMM
        for (int j = 0; j < b.nc; j++) {                // expect: GEMV in multiply_growing
            double t = 0.0;
            for (int k = 0; k < a.nc; k++)
                t += a(i, k) * b(k, j);
            c(i, j) = t;
        }
        c.nr = i + 1;
    }
}

/* Each row becomes itself plus its product with w: the sums start from the row. */
void contract_plus_row(Tensor &a, const Matrix &w, std::vector<double> &sum)
{
    for (int r = 0; r < a.nr; r++)                      // expect-none: GEMM
        for (int q = 0; q < a.nq; q++) {
            for (int p = 0; p < a.np; p++) {
                sum[p] = a.at(r, q, p);
                for (int s = 0; s < a.np; s++)          // expect: Reduction in contract_plus_row
                    sum[p] += a.at(r, q, s) * w(s, p);
            }
            for (int p = 0; p < a.np; p++)
                a.at(r, q, p) = sum[p];
        }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 16;
    int np = argc > 2 ? std::atoi(argv[2]) : 24;
    int iters = argc > 3 ? std::atoi(argv[3]) : 2;
    if (n < 1 || np < 1 || iters < 1)
        return 1;
    Matrix a(n, n + 2), b(n + 2, n), c(0, n);
    c.d.resize((std::size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n + 2; k++) {
            a(i, k) = (double)((i * 3 + k * 5) % 7) / 7.0 - 0.4;
            b(k, i) = (double)((k * 2 + i) % 9) / 9.0 - 0.3;
        }
    multiply_growing(a, b, c);

    Tensor t(n / 2 + 1, 3, np);
    Matrix w(np, np);
    std::vector<double> sum(np);
    for (int r = 0; r < t.nr; r++)
        for (int q = 0; q < 3; q++)
            for (int p = 0; p < np; p++)
                t.at(r, q, p) = (double)((r + q * 4 + p * 3) % 11 + 1) / 11.0;
    for (int s = 0; s < np; s++)
        for (int p = 0; p < np; p++)
            w(s, p) = (double)((s * p + s + 2 * p) % 5) / (5.0 * np);
    for (int it = 0; it < iters; it++)
        contract_plus_row(t, w, sum);

    double cs = 0.0;
    for (int i = 0; i < c.nr; i++)
        for (int j = 0; j < c.nc; j++)                  // expect: Reduction in main
            cs += c(i, j) * (double)((i + j) % 3 + 1);
    double ts = 0.0;
    for (std::size_t k = 0; k < t.d.size(); k++)        // expect: Reduction in main
        ts += t.d[k] * (double)(k % 4 + 1);
    std::printf("rows = %d c weighted = %.10g\n", c.nr, cs);
    std::printf("t weighted = %.10g sum[0] = %.10g\n", ts, sum[0]);
    return 0;
}
