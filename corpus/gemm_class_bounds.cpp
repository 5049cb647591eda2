// corpus: GEMM and GEMV through a C++ matrix class passed by reference whose loop bounds are read from the objects (c.rows(), a.nc): LLVM loads them again inside the nest, carrying a column count from trip to trip as a phi of repeated loads; a product C = A * B in double with dot products in a local sum, then power iterations y = M x in float normalised between calls
// args: test=5 7 3 bench=1100 3000 60
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T> class Matrix {
public:
    int nr, nc;
    std::vector<T> d;
    Matrix(int r, int c) : nr(r), nc(c), d((std::size_t)r * c) {}
    T &operator()(int i, int j) { return d[i * nc + j]; }
    T operator()(int i, int j) const { return d[i * nc + j]; }
    int rows() const { return nr; }
    int cols() const { return nc; }
};

/* c = a * b, the sizes taken from the objects. */
void multiply(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &c)
{
    for (int i = 0; i < c.rows(); i++)                  // expect: GEMM in multiply
        for (int j = 0; j < c.cols(); j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = t;
        }
}

/* y = m * x over the object's rows and columns. */
void apply(const Matrix<float> &m, const std::vector<float> &x, std::vector<float> &y)
{
    for (int i = 0; i < m.nr; i++) {                    // expect: GEMV in apply
        float t = 0.0f;
        for (int j = 0; j < m.nc; j++)
            t += m(i, j) * x[j];
        y[i] = t;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 64;
    int m = argc > 2 ? std::atoi(argv[2]) : 128;
    int iters = argc > 3 ? std::atoi(argv[3]) : 4;
    if (n < 1 || m < 1 || iters < 1)
        return 1;
    const int p = n + n / 3 + 1;

    Matrix<double> a(n, p), b(p, n), c(n, n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < p; k++)
            a(i, k) = (double)((i * 2 + k * 5) % 9) / 9.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            b(k, j) = (double)((k + j * 4) % 11) / 11.0 - 0.5;
    multiply(a, b, c);

    /* a square matrix of positive entries: the iterations approach its leading vector */
    Matrix<float> mat(m, m);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            mat(i, j) = (float)((i * 3 + j * 7 + i * j) % 13 + 1) / 13.0f;
    std::vector<float> x(m, 1.0f), y(m);
    float norm = 0.0f;
    for (int it = 0; it < iters; it++) {
        apply(mat, x, y);
        float ss = 0.0f;
        for (int i = 0; i < m; i++)                     // expect: Reduction in main
            ss += y[i] * y[i];
        norm = std::sqrt(ss);
        const float inv = 1.0f / norm;
        for (int i = 0; i < m; i++)                     // expect: Map in main
            x[i] = y[i] * inv;
    }

    double tr = 0.0, rs = 0.0, cs = 0.0;
    for (int i = 0; i < n; i++) {                       // expect: Reduction in main
        tr += c(i, i);
        rs += c(n / 3, i);
        cs += c(i, n - 1);
    }
    double xs = 0.0;
    for (int i = 0; i < m; i++)                         // expect: Reduction in main
        xs += x[i] * (double)(i % 5 + 1);
    std::printf("n p m = %d %d %d iters = %d\n", n, p, m, iters);
    std::printf("trace = %.10g row = %.10g col = %.10g\n", tr, rs, cs);
    std::printf("c(0,0) = %.10g c(last) = %.10g\n", c(0, 0), c(n - 1, n - 1));
    std::printf("norm = %.6g x weighted = %.6g x[0] = %.6g\n", norm, xs, x[0]);
    return 0;
}
