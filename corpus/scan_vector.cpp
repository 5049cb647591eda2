// corpus: Scan, C++ prefix sums over std::vector with std::size_t indices: CSR-style row starts built from int sizes into a member std::vector<long> (Offsets::build, start_[i+1] = running total), and an exclusive scan of longs into another vector (exclusive_sums)
// args: test=1000 3 bench=4000000 250
#include <cstdio>
#include <cstdlib>
#include <vector>

class Offsets {
public:
    explicit Offsets(std::size_t n) : start_(n + 1) {}
    void build(const std::vector<int> &sizes);
    long start(std::size_t i) const { return start_[i]; }
    std::size_t size() const { return start_.size(); }

private:
    std::vector<long> start_;
};

/* Offsets::build: start_[0] = 0, start_[i+1] = sizes[0] + ... + sizes[i] */
void Offsets::build(const std::vector<int> &sizes)
{
    const std::size_t n = sizes.size();
    long s = 0;
    start_[0] = 0;
    for (std::size_t i = 0; i < n; i++) {   // expect: Scan in Offsets::build
        s += sizes[i];
        start_[i + 1] = s;
    }
}

/* exclusive_sums: out[i] = v[0] + ... + v[i-1] (out[0] = 0) */
void exclusive_sums(const std::vector<long> &v, std::vector<long> &out)
{
    long s = 0;
    for (std::size_t i = 0; i < v.size(); i++) {   // expect: Scan in exclusive_sums
        out[i] = s;
        s += v[i];
    }
}

int main(int argc, char **argv)
{
    std::size_t n = argc > 1 ? (std::size_t)std::atol(argv[1]) : 100000;
    int iters = argc > 2 ? std::atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    std::vector<int> sizes(n);
    std::vector<long> weights(n), before(n);
    unsigned seed = 99991u;
    for (std::size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        sizes[i] = (int)((seed >> 16) % 64u);                      /* entries per row */
        weights[i] = (long)((seed >> 6) % 100000u) - 20000L;       /* mostly positive */
    }

    Offsets rows(n);
    long tails = 0;
    for (int it = 0; it < iters; it++) {
        sizes[((std::size_t)it * 7919u) % n] += 1;                 /* each pass sees different sizes */
        weights[((std::size_t)it * 104729u) % n] -= (long)it;
        rows.build(sizes);
        exclusive_sums(weights, before);
        tails += rows.start(n) + before[n - 1];
    }

    long sr = 0, sb = 0;
    for (std::size_t i = 0; i < rows.size(); i++)   // expect: Reduction in main
        sr += rows.start(i);
    for (std::size_t i = 0; i < n; i++)   // expect: Reduction in main
        sb += before[i];
    std::printf("n %zu iters %d\n", n, iters);
    std::printf("start[n/2] %ld start[n] %ld sum %ld\n", rows.start(n / 2), rows.start(n), sr);
    std::printf("before[n/2] %ld before[n-1] %ld sum %ld\n", before[n / 2], before[n - 1], sb);
    std::printf("tails %ld\n", tails);
    return 0;
}
