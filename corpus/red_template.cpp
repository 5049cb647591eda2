// corpus: a C++ function template (sum of |x[i] - c|) instantiated for float and double
// args: test=4096 3 bench=1000000 1500
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

/* abs_dev: sum of |x[i] - centre| over [0, n); one source loop, two instantiations */
template <typename T>
T abs_dev(const T *x, long n, T centre)
{
    T s = T(0);
    for (long i = 0; i < n; i++)   // expect: Reduction in abs_dev
        s += std::fabs(x[i] - centre);
    return s;
}

template float abs_dev<float>(const float *, long, float);
template double abs_dev<double>(const double *, long, double);

int main(int argc, char **argv)
{
    long n = argc > 1 ? std::atol(argv[1]) : 100000;
    int iters = argc > 2 ? std::atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    /* float data are multiples of 1/4 in [0, 2): for n up to 2^21 every partial float sum
       stays exact, so the float result does not depend on the summation order */
    std::vector<float> xf(n);
    std::vector<double> xd(n);
    for (long i = 0; i < n; i++) {
        xf[i] = (float)((i * 13) % 8) * 0.25f;
        xd[i] = std::sin(0.001 * (double)i) + 0.5 * std::cos(0.017 * (double)i);
    }

    std::vector<float> rf(iters);
    std::vector<double> rd(iters);
    for (int it = 0; it < iters; it++) {
        rf[it] = abs_dev<float>(xf.data(), n, 0.25f * (float)(it % 8));
        rd[it] = abs_dev<double>(xd.data(), n, 0.01 * (double)it);
    }

    double chk = 0.0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        chk += (double)rf[it] + rd[it];
    std::printf("float %.10g double %.10g\n", (double)rf[0], rd[0]);
    std::printf("checksum %.10g\n", chk);
    return 0;
}
