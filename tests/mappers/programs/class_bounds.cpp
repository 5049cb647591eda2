/* Kernels over C++ classes passed by reference whose loop bounds are read from the
   objects (corpus/gemm_class_bounds.cpp, gemm_batched_vector_sums.cpp), at any size,
   zero included; and a nest that writes an object's size field (must stay as it is).
   Usage: class_bounds N M K (sizes >= 0). */
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T> struct Matrix {
    int nr, nc;
    std::vector<T> d;
    Matrix(int r, int c) : nr(r), nc(c), d((std::size_t)r * c) {}
    T &operator()(int i, int j) { return d[i * nc + j]; }
    T operator()(int i, int j) const { return d[i * nc + j]; }
    int rows() const { return nr; }
    int cols() const { return nc; }
};

struct Tensor {
    int nr, nq, np;
    std::vector<double> d;
    Tensor(int r, int q, int p) : nr(r), nq(q), np(p), d((std::size_t)r * q * p) {}
    double &at(int r, int q, int p) { return d[(r * nq + q) * np + p]; }
};

void multiply(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &c)
{
    for (int i = 0; i < c.rows(); i++)
        for (int j = 0; j < c.cols(); j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = t;
        }
}

void apply(const Matrix<float> &m, const std::vector<float> &x, std::vector<float> &y)
{
    for (int i = 0; i < m.nr; i++) {
        float t = 0.0f;
        for (int j = 0; j < m.nc; j++)
            t += m(i, j) * x[j];
        y[i] = t;
    }
}

void contract(Tensor &a, const Matrix<double> &w, std::vector<double> &sum)
{
    for (int r = 0; r < a.nr; r++)
        for (int q = 0; q < a.nq; q++) {
            for (int p = 0; p < a.np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < a.np; s++)
                    sum[p] += a.at(r, q, s) * w(s, p);
            }
            for (int p = 0; p < a.np; p++)
                a.at(r, q, p) = sum[p];
        }
}

/* The product's rows, c's row count following them: a store into the object. */
void multiply_growing(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &c)
{
    for (int i = 0; i < a.nr; i++) {
        for (int j = 0; j < b.nc; j++) {
            double t = 0.0;
            for (int k = 0; k < a.nc; k++)
                t += a(i, k) * b(k, j);
            c(i, j) = t;
        }
        c.nr = i + 1;
    }
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n = std::atoi(argv[1]), m = std::atoi(argv[2]), k = std::atoi(argv[3]);
    if (n < 0 || m < 0 || k < 0)
        return 2;
    Matrix<double> a(n, k), b(k, m), c(n, m), g(0, m);
    g.d.resize((std::size_t)n * m);
    for (int i = 0; i < n; i++)
        for (int l = 0; l < k; l++)
            a(i, l) = (double)((i * 3 + l * 7) % 10) / 10.0 - 0.45;
    for (int l = 0; l < k; l++)
        for (int j = 0; j < m; j++)
            b(l, j) = (double)((l * 5 + j * 2) % 11) / 11.0 - 0.5;
    multiply(a, b, c);
    multiply_growing(a, b, g);

    Matrix<float> mf(n, m);
    std::vector<float> x(m), y(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            mf(i, j) = (float)((i * 2 + j * 3) % 7) / 7.0f - 0.4f;
    for (int j = 0; j < m; j++)
        x[j] = (float)(j % 5) / 5.0f;
    apply(mf, x, y);

    Tensor t(n, m, k);
    Matrix<double> w(k, k);
    std::vector<double> sum(k);
    for (std::size_t l = 0; l < t.d.size(); l++)
        t.d[l] = (double)(l % 13 + 1) / 13.0;
    for (int s = 0; s < k; s++)
        for (int p = 0; p < k; p++)
            w(s, p) = (double)((s * p + 3 * s + p) % 7) / (7.0 * k);
    contract(t, w, sum);

    double cs = 0.0, gs = 0.0, ys = 0.0, ts = 0.0, ss = 0.0;
    for (std::size_t l = 0; l < c.d.size(); l++)
        cs += c.d[l] * (double)(l % 3 + 1);
    for (std::size_t l = 0; l < g.d.size(); l++)
        gs += g.d[l] * (double)(l % 4 + 1);
    for (int i = 0; i < n; i++)
        ys += y[i] * (double)(i % 5 + 1);
    for (std::size_t l = 0; l < t.d.size(); l++)
        ts += t.d[l] * (double)(l % 6 + 1);
    for (int p = 0; p < k; p++)
        ss += sum[p] * (double)(p % 2 + 1);
    std::printf("c %.12g\ng %.12g rows %d\ny %.6g\nt %.12g\nsum %.12g\n", cs, gs, g.nr, ys, ts, ss);
    return 0;
}
