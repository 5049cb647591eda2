// corpus: TRSV, implicit time stepping of a one-way (upwind) transport with nonlocal coupling: each step solves U u_new = u_old + dt f by back substitution, a Matrix class (std::vector storage, operator() access), upper, rows counting down, from b into x, divided
// args: test=50 4 bench=1500 2900
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

class Matrix {
public:
    explicit Matrix(int n) : n_(n), data_(static_cast<std::size_t>(n) * n) {}
    double& operator()(int i, int j) { return data_[static_cast<std::size_t>(i) * n_ + j]; }
    double operator()(int i, int j) const { return data_[static_cast<std::size_t>(i) * n_ + j]; }
    int size() const { return n_; }

private:
    int n_;
    std::vector<double> data_;
};

// U x = b for x, U upper triangular (its strictly lower triangle never read): the last row
// first, each row taking off the products with the values below it, already solved.
void back_substitute(const Matrix& U, const std::vector<double>& b, std::vector<double>& x)
{
    const int n = U.size();
    for (int i = n - 1; i >= 0; --i) {         // expect: TRSV in back_substitute
        double s = b[i];
        for (int j = i + 1; j < n; ++j)
            s -= U(i, j) * x[j];
        x[i] = s / U(i, i);
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 300;
    int steps = argc > 2 ? std::atoi(argv[2]) : 100;
    if (n < 2) n = 2;
    if (steps < 1) steps = 1;

    const double dt = 0.05, h = 1.0 / n;
    // (I + dt K) with K upper triangular: a decay rate of 2 to 2.5 on the diagonal, and an
    // inflow from the cells downstream, exp(-distance) h, at most one in total per row;
    // row sums stay below the diagonal, so the scheme contracts. The lower triangle holds
    // a value the solve must never read.
    Matrix U(n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            U(i, j) = j > i ? -dt * h * std::exp(-static_cast<double>(j - i) * h)
                    : j == i ? 1.0 + dt * (2.0 + 0.5 * static_cast<double>(i % 3) / 2.0)
                    : 123.0;

    std::vector<double> u(n), b(n), x(n), f(n);
    for (int i = 0; i < n; ++i) {
        u[i] = 1.0 + 0.5 * std::sin(3.0 * i * h);
        f[i] = 0.5 + static_cast<double>((i * 7) % 10) / 20.0;
    }

    double mass_sum = 0.0;
    for (int step = 0; step < steps; ++step) {
        for (int i = 0; i < n; ++i)   // expect: Map in main
            b[i] = u[i] + dt * f[i];
        back_substitute(U, b, x);
        double mass = 0.0;
        for (int i = 0; i < n; ++i) {          // expect: Reduction in main
            mass += x[i];
            u[i] = x[i];
        }
        mass_sum += mass * h;
    }

    double weighted = 0.0;
    for (int i = 0; i < n; ++i)                // expect: Reduction in main
        weighted += u[i] * static_cast<double>(1 + i % 6);

    std::printf("n steps = %d %d\n", n, steps);
    std::printf("mass summed over steps = %.10g\n", mass_sum);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("u[0] = %.10g  u[n/2] = %.10g  u[n-1] = %.10g\n", u[0], u[n / 2], u[n - 1]);
    return 0;
}
