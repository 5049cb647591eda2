// corpus: C++ reductions over std::vector via operator[]: a signal class's energy method and a free weighted sum
// args: test=3000 3 bench=2000000 250
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Signal {
public:
    explicit Signal(std::size_t n) : samples_(n) {}
    double &operator[](std::size_t i) { return samples_[i]; }
    std::size_t size() const { return samples_.size(); }
    double energy() const;
    double rms() const { return std::sqrt(energy() / (double)samples_.size()); }

private:
    std::vector<double> samples_;
};

/* Signal::energy: sum of squared samples */
double Signal::energy() const
{
    double e = 0.0;
    for (std::size_t i = 0; i < samples_.size(); i++)   // expect: Reduction in Signal::energy
        e += samples_[i] * samples_[i];
    return e;
}

/* weighted_sum: sum of w[i] * sqrt(|v[i]|) */
double weighted_sum(const std::vector<double> &v, const std::vector<double> &w)
{
    double s = 0.0;
    for (std::size_t i = 0; i < v.size(); i++)   // expect: Reduction in weighted_sum
        s += w[i] * std::sqrt(std::fabs(v[i]));
    return s;
}

int main(int argc, char **argv)
{
    std::size_t n = argc > 1 ? (std::size_t)std::atol(argv[1]) : 100000;
    int iters = argc > 2 ? std::atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    Signal sig(n);
    std::vector<double> v(n), w(n);
    for (std::size_t i = 0; i < n; i++) {
        sig[i] = std::sin(0.01 * (double)i) * (1.0 + (double)(i % 5));
        v[i] = std::cos(0.003 * (double)i) * 4.0;
        w[i] = 1.0 / (double)(1 + i % 9);
    }

    std::vector<double> rms(iters), ws(iters);
    for (int it = 0; it < iters; it++) {
        sig[(std::size_t)it % n] += 0.25;
        rms[it] = sig.rms();
        ws[it] = weighted_sum(v, w);
        v[(std::size_t)(it * 7) % n] = -v[(std::size_t)(it * 7) % n];
    }

    double chk = 0.0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        chk += rms[it] + ws[it];
    std::printf("rms %.10g weighted %.10g\n", rms[0], ws[0]);
    std::printf("checksum %.10g\n", chk);
    return 0;
}
