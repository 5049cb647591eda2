// direct: gemm_batched_vector_sums.cpp: each contract as one cblas_dgemm or cblas_sgemm over the batch flattened to one (nr*nq) x np matrix times w into a scratch block, copied back over the rows, sum the last row
// args: test=3 4 5 2 bench=96 128 192 6
#include <cblas.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T> struct Tensor {
    int nr, nq, np;
    std::vector<T> d;
    Tensor(int r, int q, int p) : nr(r), nq(q), np(p), d((std::size_t)r * q * p) {}
    T &at(int r, int q, int p) { return d[(r * nq + q) * np + p]; }
};

template <typename T> struct Matrix {
    int rows, cols;
    std::vector<T> d;
    Matrix(int m, int n) : rows(m), cols(n), d((std::size_t)m * n) {}
    T &at(int i, int j) { return d[i * cols + j]; }
    T at(int i, int j) const { return d[i * cols + j]; }
};

/* Each row a.at(r, q, 0 .. np-1) becomes its product with w (np x np), summed in sum. */
void contract(Tensor<double> &a, const Matrix<double> &w, std::vector<double> &sum)
{
    const int rows = a.nr * a.nq, np = a.np;
    if (rows == 0 || np == 0)
        return;
    std::vector<double> scratch((std::size_t)rows * np);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, np, np, 1.0, a.d.data(), np,
                w.d.data(), np, 0.0, scratch.data(), np);
    for (std::size_t i = 0; i < scratch.size(); i++)
        a.d[i] = scratch[i];
    for (int p = 0; p < np; p++)
        sum[p] = scratch[(std::size_t)(rows - 1) * np + p];
}

/* The same in single precision. */
void contract(Tensor<float> &a, const Matrix<float> &w, std::vector<float> &sum)
{
    const int rows = a.nr * a.nq, np = a.np;
    if (rows == 0 || np == 0)
        return;
    std::vector<float> scratch((std::size_t)rows * np);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, np, np, 1.0f, a.d.data(), np,
                w.d.data(), np, 0.0f, scratch.data(), np);
    for (std::size_t i = 0; i < scratch.size(); i++)
        a.d[i] = scratch[i];
    for (int p = 0; p < np; p++)
        sum[p] = scratch[(std::size_t)(rows - 1) * np + p];
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? std::atoi(argv[1]) : 8;
    int nq = argc > 2 ? std::atoi(argv[2]) : 8;
    int np = argc > 3 ? std::atoi(argv[3]) : 32;
    int iters = argc > 4 ? std::atoi(argv[4]) : 2;
    if (nr < 1 || nq < 1 || np < 1 || iters < 1)
        return 1;

    Tensor<double> a(nr, nq, np);
    Tensor<float> af(nr, nq, np);
    Matrix<double> w(np, np);
    Matrix<float> wf(np, np);
    std::vector<double> sum(np);
    std::vector<float> sumf(np);
    /* positive entries; each row of w sums to about one */
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++)
            for (int p = 0; p < np; p++) {
                a.at(r, q, p) = (double)((r * 7 + q * 2 + p * 5) % 19 + 3) / 11.0;
                af.at(r, q, p) = (float)((r * 3 + q * 5 + p * 2) % 13 + 2) / 7.0f;
            }
    for (int s = 0; s < np; s++)
        for (int p = 0; p < np; p++) {
            w.at(s, p) = (double)((s * 5 + p * 3 + s * p) % 11 + 1) / (6.0 * np);
            wf.at(s, p) = (float)((s * 2 + p * 7 + s * p) % 9 + 1) / (5.0f * np);
        }

    const double target = (double)nr * nq * np;
    double scale = 1.0;
    float fscale = 1.0f;
    for (int it = 0; it < iters; it++) {
        contract(a, w, sum);
        contract(af, wf, sumf);
        /* renormalise: the mean element of a and of af back to one */
        double total = 0.0;
        for (std::size_t t = 0; t < a.d.size(); t++)
            total += a.d[t];
        scale = target / total;
        for (std::size_t t = 0; t < a.d.size(); t++)
            a.d[t] *= scale;
        double ftotal = 0.0;
        for (std::size_t t = 0; t < af.d.size(); t++)
            ftotal += af.d[t];
        fscale = (float)(target / ftotal);
        for (std::size_t t = 0; t < af.d.size(); t++)
            af.d[t] *= fscale;
    }

    double sa = 0.0, wa = 0.0;
    for (std::size_t t = 0; t < a.d.size(); t++) {
        sa += a.d[t];
        wa += a.d[t] * (double)(t % 7 + 1);
    }
    double fa = 0.0;
    for (std::size_t t = 0; t < af.d.size(); t++)
        fa += af.d[t] * (double)(t % 5 + 1);
    double ss = 0.0, sf = 0.0;
    for (int p = 0; p < np; p++) {
        ss += sum[p] * (double)(p % 3 + 1);
        sf += sumf[p] * (double)(p % 4 + 1);
    }
    std::printf("nr nq np = %d %d %d iters = %d\n", nr, nq, np, iters);
    std::printf("last scales = %.10g %.6g\n", scale, fscale);
    std::printf("a sum = %.10g weighted = %.10g\n", sa, wa);
    std::printf("a(0,0,0) = %.10g a(last) = %.10g\n", a.at(0, 0, 0), a.at(nr - 1, nq - 1, np - 1));
    std::printf("af weighted = %.6g af(0,0,0) = %.6g af(last) = %.6g\n", fa, af.at(0, 0, 0),
                af.at(nr - 1, nq - 1, np - 1));
    std::printf("sum weighted = %.10g sumf weighted = %.6g\n", ss, sf);
    return 0;
}
