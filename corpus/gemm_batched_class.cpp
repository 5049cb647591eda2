// corpus: GEMM, batched in-place products of rows by one matrix (doitgen), a C++ tensor class over std::vector<double> with an at(r, q, p) accessor and a row(r, q) pointer to a row, the kernel an out-of-line member function working on the rows of data_.data() with the sums in a std::vector<double>, the factors read W first, repeated with a renormalisation between calls
// args: test=3 4 6 2 bench=80 96 160 20
#include <cstdio>
#include <cstdlib>
#include <vector>

class Tensor3 {
public:
    Tensor3(std::size_t nr, std::size_t nq, std::size_t np)
        : nr_(nr), nq_(nq), np_(np), data_(nr * nq * np) {}
    double &at(std::size_t r, std::size_t q, std::size_t p)
    {
        return data_[(r * nq_ + q) * np_ + p];
    }
    double at(std::size_t r, std::size_t q, std::size_t p) const
    {
        return data_[(r * nq_ + q) * np_ + p];
    }
    double *row(std::size_t r, std::size_t q) { return data_.data() + (r * nq_ + q) * np_; }
    std::size_t nr() const { return nr_; }
    std::size_t nq() const { return nq_; }
    std::size_t np() const { return np_; }
    void contract(const std::vector<double> &w, std::vector<double> &sum);

private:
    std::size_t nr_, nq_, np_;
    std::vector<double> data_;
};

/* Each row at(r, q, 0 .. np-1) becomes its product with the np x np matrix w (row-major),
   through the row of sums. */
void Tensor3::contract(const std::vector<double> &w, std::vector<double> &sum)
{
    const std::size_t nr = nr_, nq = nq_, np = np_;
    double *data = data_.data();
    for (std::size_t r = 0; r < nr; ++r) {          // expect: GEMM in Tensor3::contract
        for (std::size_t q = 0; q < nq; ++q) {
            double *x = data + (r * nq + q) * np;
            for (std::size_t p = 0; p < np; ++p) {
                sum[p] = 0.0;
                for (std::size_t s = 0; s < np; ++s)
                    sum[p] += w[s * np + p] * x[s];
            }
            for (std::size_t p = 0; p < np; ++p)
                x[p] = sum[p];
        }
    }
}

int main(int argc, char **argv)
{
    std::size_t nr = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 16;
    std::size_t nq = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 16;
    std::size_t np = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 64;
    int iters = argc > 4 ? std::atoi(argv[4]) : 2;
    if (nr < 1 || nq < 1 || np < 1 || iters < 1)
        return 1;

    Tensor3 a(nr, nq, np);
    std::vector<double> w(np * np), sum(np);
    /* positive entries; each row of w sums to about one */
    for (std::size_t r = 0; r < nr; ++r)
        for (std::size_t q = 0; q < nq; ++q)
            for (std::size_t p = 0; p < np; ++p)
                a.at(r, q, p) = static_cast<double>((r * 3 + q * 7 + p * 2) % 19 + 5) / 14.0;
    for (std::size_t s = 0; s < np; ++s)
        for (std::size_t p = 0; p < np; ++p)
            w[s * np + p] = static_cast<double>((s * 4 + p * 9 + s * p) % 15 + 1) / (8.0 * np);

    const double target = static_cast<double>(nr * nq * np);
    double scale = 1.0;
    for (int it = 0; it < iters; ++it) {
        a.contract(w, sum);
        /* renormalise: the mean element back to one */
        double total = 0.0;
        for (std::size_t r = 0; r < nr; ++r)
            for (std::size_t q = 0; q < nq; ++q) {
                const double *x = a.row(r, q);
                for (std::size_t p = 0; p < np; ++p)    // expect: Reduction in main
                    total += x[p];
            }
        scale = target / total;
        for (std::size_t r = 0; r < nr; ++r)            // expect: Map in main
            for (std::size_t q = 0; q < nq; ++q)
                for (std::size_t p = 0; p < np; ++p)
                    a.at(r, q, p) *= scale;
    }

    double sa = 0.0, wa = 0.0;
    for (std::size_t r = 0; r < nr; ++r)
        for (std::size_t q = 0; q < nq; ++q) {
            const double *x = a.row(r, q);
            for (std::size_t p = 0; p < np; ++p) {      // expect: Reduction in main
                sa += x[p];
                wa += x[p] * static_cast<double>((r + 2 * q + 5 * p) % 6 + 1);
            }
        }
    double ss = 0.0;
    for (std::size_t p = 0; p < np; ++p)                // expect: Reduction in main
        ss += sum[p] * static_cast<double>(p % 3 + 1);
    std::printf("nr nq np = %zu %zu %zu iters = %d\n", nr, nq, np, iters);
    std::printf("last scale = %.10g\n", scale);
    std::printf("A sum = %.10g weighted = %.10g\n", sa, wa);
    std::printf("a(0,0,0) = %.10g a(last) = %.10g\n", a.at(0, 0, 0), a.at(nr - 1, nq - 1, np - 1));
    std::printf("a(mid) = %.10g\n", a.at(nr / 2, nq / 3, np / 2));
    std::printf("sum weighted = %.10g sum[0] = %.10g\n", ss, sum[0]);
    return 0;
}
