/* GEMM through C++ matrix classes whose accessors return references, the product added
 * to C's old element (`c(i,j) = 0.5 * t + c(i,j)`, alpha * t + beta * c(i,j)), for the
 * differential tests of blas.idl's ScaledResult and mappers/targets/blas.py:
 *
 *   gemm_class_update N SEED MODE
 *
 * Every kernel writes C (n x n) from A (n x k) and B (k x n), k = (n + 1) / 2.
 * MODE 0: separate matrices (each kernel one BLAS call);
 *      1: A is C itself (the guard must decline);
 *      2: A starts one element into C (decline);
 *      3: beta is 0 (blend, which multiplies C by it, must decline: 0 * NaN is NaN). */
#include <cstdio>
#include <cstdlib>
#include <vector>

/* A view of rows of `ld` elements in memory someone else owns. */
template <typename T> class View {
public:
    View(T *p, int r, int c, int lead) : base(p), nr(r), nc(c), ld(lead) {}
    int rows() const { return nr; }
    int cols() const { return nc; }
    T &operator()(int i, int j) { return base[static_cast<std::size_t>(i) * ld + j]; }
    const T &operator()(int i, int j) const { return base[static_cast<std::size_t>(i) * ld + j]; }

private:
    T *base;
    int nr, nc, ld;
};

/* A matrix owning its elements in a std::vector. */
class Owned {
public:
    Owned(int r, int c) : nr(r), nc(c), cells(static_cast<std::size_t>(r) * c, 0.0) {}
    int rows() const { return nr; }
    int cols() const { return nc; }
    double &operator()(int i, int j) { return cells[static_cast<std::size_t>(i) * nc + j]; }
    const double &operator()(int i, int j) const
    {
        return cells[static_cast<std::size_t>(i) * nc + j];
    }
    void add_half(const Owned &a, const Owned &b);

private:
    int nr, nc;
    std::vector<double> cells;
};

void half(const View<double> &a, const View<double> &b, View<double> &c)
{
    for (int i = 0; i < c.rows(); i++)
        for (int j = 0; j < c.cols(); j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5 * t + c(i, j);
        }
}

void blend(double alpha, double beta, const View<double> &a, const View<double> &b, View<double> &c)
{
    for (int i = 0; i < c.rows(); i++)
        for (int j = 0; j < c.cols(); j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = alpha * t + beta * c(i, j);
        }
}

void const_blend(const View<double> &a, const View<double> &b, View<double> &c)
{
    for (int i = 0; i < c.rows(); i++)
        for (int j = 0; j < c.cols(); j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5 * t + 0.75 * c(i, j);
        }
}

void half_float(const View<float> &a, const View<float> &b, View<float> &c)
{
    for (int i = 0; i < c.rows(); i++)
        for (int j = 0; j < c.cols(); j++) {
            float t = 0.0f;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            c(i, j) = 0.5f * t + c(i, j);
        }
}

void Owned::add_half(const Owned &a, const Owned &b)
{
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++) {
            double t = 0.0;
            for (int k = 0; k < a.cols(); k++)
                t += a(i, k) * b(k, j);
            (*this)(i, j) = 0.5 * t + (*this)(i, j);
        }
}

static unsigned long long state;

static double next_value()
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>((state >> 33) % 2001) / 1000.0 - 1.0;
}

template <typename T> static void fill(std::vector<T> &v)
{
    for (T &x : v) x = static_cast<T>(next_value());
}

template <typename T> static void print(const char *name, const std::vector<T> &v)
{
    for (std::size_t t = 0; t < v.size(); t++)
        std::printf("%s[%zu] = %.12g\n", name, t, static_cast<double>(v[t]));
}

template <typename T> static void run_views(int kernel, int n, int mode, double beta)
{
    const int k = (n + 1) / 2, size = n * n;
    /* one block: C, one spare element, A (n x k, ld n), B (k x n) */
    std::vector<T> block(static_cast<std::size_t>(3 * size + 1));
    fill(block);
    if constexpr (sizeof(T) == sizeof(float)) {
        /* positive in float: no element cancels to a few ulps of its terms */
        for (T &x : block) x += static_cast<T>(1.25);
    }
    T *c = block.data(), *a = c + size + 1, *b = a + size;
    T *first = mode == 1 ? c : mode == 2 ? c + 1 : a;
    View<T> vc(c, n, n, n), va(first, n, k, n), vb(b, k, n, n);
    if constexpr (sizeof(T) == sizeof(float)) {
        half_float(va, vb, vc);
    } else {
        switch (kernel) {
        case 0: half(va, vb, vc); break;
        case 1: blend(-1.25, beta, va, vb, vc); break;
        default: const_blend(va, vb, vc); break;
        }
    }
    std::printf("kernel %d\n", kernel);
    print("block", block);
}

static void run_owned(int n, int mode)
{
    const int k = (n + 1) / 2;
    Owned c(n, n), a(n, k), b(k, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) c(i, j) = next_value();
    for (int i = 0; i < n; i++)
        for (int j = 0; j < k; j++) a(i, j) = next_value();
    for (int i = 0; i < k; i++)
        for (int j = 0; j < n; j++) b(i, j) = next_value();
    if (mode == 1 || mode == 2)
        c.add_half(c, c); /* C = 0.5 C C + C: both factors are C (decline) */
    else
        c.add_half(a, b);
    std::printf("kernel 4\n");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) std::printf("c(%d,%d) = %.12g\n", i, j, c(i, j));
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 5;
    state = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
    int mode = argc > 3 ? std::atoi(argv[3]) : 0;
    double beta = mode == 3 ? 0.0 : 0.6;
    for (int kernel = 0; kernel < 3; kernel++) run_views<double>(kernel, n, mode, beta);
    run_views<float>(3, n, mode, beta);
    run_owned(n, mode);
    return 0;
}
