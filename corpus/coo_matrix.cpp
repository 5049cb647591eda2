// corpus: a C++ coordinate-format matrix of floats (std::vector members) applied to a vector in a damped iteration
// args: test=300 3 bench=250000 650
#include <cstdio>
#include <cstdlib>
#include <vector>

class CooMatrix {
  public:
    explicit CooMatrix(int n) : n_(n) {}
    void add(int r, int c, float v)
    {
        rows_.push_back(r);
        cols_.push_back(c);
        vals_.push_back(v);
    }
    void multiply_add(const float *x, float *y) const;
    int size() const { return n_; }

  private:
    int n_;
    std::vector<int> rows_, cols_;
    std::vector<float> vals_;
};

/* multiply_add: y += A x, one entry at a time */
void CooMatrix::multiply_add(const float *x, float *y) const
{
    const int *r = rows_.data(), *c = cols_.data();
    const float *v = vals_.data();
    const size_t nnz = vals_.size();
    for (size_t k = 0; k < nnz; ++k)   // expect: SpMV_COO in CooMatrix::multiply_add
        y[r[k]] += v[k] * x[c[k]];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 1000;
    int iters = argc > 2 ? std::atoi(argv[2]) : 5;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;
    CooMatrix a(n);
    unsigned seed = 2024u;
    for (int i = 0; i < n; i++) {
        a.add(i, i, 0.5f);
        for (int e = 0; e < 5; e++) {
            seed = seed * 1103515245u + 12345u;
            a.add(i, (int)((seed >> 8) % (unsigned)n), 0.0625f * (float)(1 + (seed >> 4) % 3));
        }
    }
    std::vector<float> x(n, 1.0f), y(n);
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < n; i++)   // expect: Map in main
            y[i] = 0.25f * x[i];
        a.multiply_add(x.data(), y.data());
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = y[i] / (1.0f + 0.001f * (float)(i % 5));
    }
    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    std::printf("sum %.6e x[0] %.6e x[n-1] %.6e\n", cs, (double)x[0], (double)x[n - 1]);
    return 0;
}
