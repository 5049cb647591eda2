// corpus: Map, C++ vector class over std::vector<double> with operator[] and size(): axpy and a leaky-ReLU scaling as methods (Vec::axpy, Vec::leaky_scale), an element-wise product plus a square-root term as a free function (hadamard), a norm method (Reduction)
// args: test=3000 3 bench=2000000 300
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Vec {
public:
    explicit Vec(std::size_t n) : data_(n) {}
    double &operator[](std::size_t i) { return data_[i]; }
    const double &operator[](std::size_t i) const { return data_[i]; }
    std::size_t size() const { return data_.size(); }
    void axpy(double a, const Vec &x);
    void leaky_scale(double s, const Vec &x);
    double norm2() const;

private:
    std::vector<double> data_;
};

/* Vec::axpy: this += a x */
void Vec::axpy(double a, const Vec &x)
{
    const std::size_t n = data_.size();
    for (std::size_t i = 0; i < n; i++)   // expect: Map in Vec::axpy
        data_[i] += a * x[i];
}

/* Vec::leaky_scale: this = s x where x > 0, s x / 100 elsewhere */
void Vec::leaky_scale(double s, const Vec &x)
{
    const std::size_t n = data_.size();
    for (std::size_t i = 0; i < n; i++)   // expect: Map in Vec::leaky_scale
        data_[i] = x[i] > 0.0 ? s * x[i] : 0.01 * s * x[i];
}

/* Vec::norm2: Euclidean norm */
double Vec::norm2() const
{
    double s = 0.0;
    for (std::size_t i = 0; i < data_.size(); i++)   // expect: Reduction in Vec::norm2
        s += data_[i] * data_[i];
    return std::sqrt(s);
}

/* hadamard: out = a .* b + sqrt(|a|) */
void hadamard(const Vec &a, const Vec &b, Vec &out)
{
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n; i++)   // expect: Map in hadamard
        out[i] = a[i] * b[i] + std::sqrt(std::fabs(a[i]));
}

int main(int argc, char **argv)
{
    std::size_t n = argc > 1 ? (std::size_t)std::atol(argv[1]) : 100000;
    int iters = argc > 2 ? std::atoi(argv[2]) : 20;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    Vec u(n), v(n), w(n);
    for (std::size_t i = 0; i < n; i++) {
        u[i] = std::sin(0.001 * (double)i);
        v[i] = 0.5 + (double)(i % 13) * 0.05 - (double)(i % 3) * 0.4;
    }

    std::vector<double> norms((std::size_t)iters);
    for (int it = 0; it < iters; it++) {
        u.axpy(it % 2 == 0 ? 0.125 : -0.125, v);
        hadamard(u, v, w);
        v.leaky_scale(0.5, w);
        norms[(std::size_t)it] = w.norm2();
    }

    double su = 0.0, sv = 0.0, sw = 0.0;
    for (std::size_t i = 0; i < n; i++) {   // expect: Reduction in main
        su += u[i];
        sv += v[i];
        sw += w[i];
    }
    double sn = 0.0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        sn += norms[(std::size_t)it];
    std::printf("n %zu iters %d\n", n, iters);
    std::printf("u[0] %.10g v[n/2] %.10g w[n-1] %.10g\n", u[0], v[n / 2], w[n - 1]);
    std::printf("sums %.10g %.10g %.10g\n", su, sv, sw);
    std::printf("|u| %.10g |v| %.10g norms %.10g\n", u.norm2(), v.norm2(), sn);
    return 0;
}
