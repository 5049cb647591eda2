// direct: gemm_colview_template.cpp: sgemm_update's loop nest as a cblas_sgemm call
// args: test=40 bench=2048
// tolerance: 1e-4 (float32 sums of 2048 products per element, 150 million in the checksum: BLAS adds them in another order)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cblas.h>

template <typename T>
struct ColView {
    T *p;
    long ld;
    T &operator()(long i, long j) const { return p[i + j * ld]; }
};

/* C(0:m,0:n) += alpha * A(0:m,0:k) * B(0:k,0:n), column-major views. */
void sgemm_update(long m, long n, long k, float alpha,
                  ColView<const float> A, ColView<const float> B, ColView<float> C)
{
    if (m > 0 && n > 0 && k > 0)
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k,
                    alpha, A.p, A.ld, B.p, B.ld, 1.0f, C.p, C.ld);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? std::atol(argv[1]) : 256;
    if (n < 4) n = 4;
    const long m = n, k = n, ld = n + 8;   // column storage padded to ld

    std::vector<float> a(ld * k), b(ld * n), c(ld * n);
    for (long j = 0; j < k; ++j)
        for (long i = 0; i < ld; ++i)
            a[i + j * ld] = static_cast<float>((i * 5 + j * 3) % 8) * 0.125f - 0.4f;
    for (long j = 0; j < n; ++j)
        for (long i = 0; i < ld; ++i) {
            b[i + j * ld] = static_cast<float>((i + j * 7) % 6) * 0.25f - 0.6f;
            c[i + j * ld] = static_cast<float>((i * 3 + j) % 4) - 1.5f;
        }

    sgemm_update(m, n, k, 0.75f, ColView<const float>{a.data(), ld},
                 ColView<const float>{b.data(), ld}, ColView<float>{c.data(), ld});

    double sum = 0.0, wsum = 0.0;
    for (long t = 0; t < ld * n; ++t) {
        sum += c[t];
        wsum += c[t] * static_cast<double>(t % 5);
    }
    std::printf("n ld = %ld %ld\n", n, ld);
    std::printf("sum = %.6e\n", sum);
    std::printf("wsum = %.6e\n", wsum);
    std::printf("C(4,2) = %.6e\n", static_cast<double>(c[4 + 2 * ld]));
    return 0;
}
