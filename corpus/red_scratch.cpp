// corpus: Reduction, C++ verification code: a manufactured flow state returned by value (std::array) at every point of a sweep, and shape functions filled into a local array, then folded into error norms and an energy
// args: test=60 2 bench=1500 10
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Manufactured {
public:
    explicit Manufactured(int seed)
    {
        for (int m = 0; m < 5; m++)
            for (int p = 0; p < 4; p++)
                c_[m][p] = double((seed + 3 * m + 5 * p) % 9) / 9.0 - 0.25;
    }

    // The five conserved variables of the manufactured solution at x in [0, 1].
    std::array<double, 5> state(double x) const
    {
        std::array<double, 5> q;
        for (int m = 0; m < 5; m++)   // expect: Map in Manufactured::state
            q[m] = c_[m][0] + x * (c_[m][1] + x * (c_[m][2] + x * c_[m][3])) +
                   c_[m][1] * std::sin(3.0 * x + m);
        return q;
    }

    // sum over the points of (rho - q_0)^2 + (e - q_4)^2
    double l2_error(const std::vector<double>& rho, const std::vector<double>& e) const;

    // err[m] += (u[i][m] - q_m)^2 over the points, u stored point by point
    void component_errors(const std::vector<double>& u, std::array<double, 5>& err) const;

private:
    double c_[5][4];
};

double Manufactured::l2_error(const std::vector<double>& rho, const std::vector<double>& e) const
{
    const int n = int(rho.size());
    double sum = 0.0;
    for (int i = 0; i < n; i++) {                 // expect: Reduction in Manufactured::l2_error
        const std::array<double, 5> q = state(double(i) / (n - 1));
        const double dr = rho[i] - q[0], de = e[i] - q[4];
        sum += dr * dr + de * de;
    }
    return sum;
}

void Manufactured::component_errors(const std::vector<double>& u, std::array<double, 5>& err) const
{
    const int n = int(u.size() / 5);
    for (int m = 0; m < 5; m++)
        err[m] = 0.0;
    for (int i = 0; i < n; i++) {                 // expect: Reduction in Manufactured::component_errors
        const std::array<double, 5> q = state(double(i) / (n - 1));
        for (int m = 0; m < 5; m++) {
            const double d = u[5 * i + m] - q[m];
            err[m] += d * d;
        }
    }
}

// Quadratic Lagrange shape functions on [-1, 1] and their derivatives at xi.
void shape(double xi, double (&n)[6])
{
    n[0] = 0.5 * xi * (xi - 1.0);
    n[1] = 1.0 - xi * xi;
    n[2] = 0.5 * xi * (xi + 1.0);
    n[3] = xi - 0.5;
    n[4] = -2.0 * xi;
    n[5] = xi + 0.5;
}

// Strain energy of a chain of quadratic elements, one Gauss-like point per element:
// the sum of k_e/2 (du/dxi)^2, with du/dxi from the element's three nodal values.
double chain_energy(const std::vector<double>& nodes, const std::vector<double>& stiffness)
{
    const int elements = int(stiffness.size());
    double energy = 0.0;
    for (int e = 0; e < elements; e++) {          // expect: Reduction in chain_energy
        double n[6];
        shape(0.3 * std::cos(0.1 * e), n);
        const double du = n[3] * nodes[2 * e] + n[4] * nodes[2 * e + 1] + n[5] * nodes[2 * e + 2];
        energy += 0.5 * stiffness[e] * du * du;
    }
    return energy;
}

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::atoi(argv[1]) : 100;
    const int reps = argc > 2 ? std::atoi(argv[2]) : 2;
    if (n < 2 || reps < 1)
        return 1;
    const Manufactured exact(4);
    std::vector<double> rho(size_t(n) * n), e(size_t(n) * n), u(size_t(n) * n * 5);
    std::vector<double> nodes(size_t(2) * n * n + 1), stiffness(size_t(n) * n);
    for (size_t i = 0; i < rho.size(); i++) {
        rho[i] = double((i * 7) % 11) / 11.0;
        e[i] = double((i * 5) % 13) / 13.0;
        stiffness[i] = 1.0 + double(i % 4);
    }
    for (size_t i = 0; i < u.size(); i++)
        u[i] = double((i * 3) % 17) / 17.0;
    for (size_t i = 0; i < nodes.size(); i++)
        nodes[i] = std::sin(0.01 * double(i));

    double l2 = 0.0, energy = 0.0;
    std::array<double, 5> err{};
    for (int r = 0; r < reps; r++) {
        l2 += exact.l2_error(rho, e);
        exact.component_errors(u, err);
        energy += chain_energy(nodes, stiffness);
    }
    std::printf("n = %d reps = %d\n", n, reps);
    std::printf("l2 = %.10g energy = %.10g\n", l2, energy);
    for (int m = 0; m < 5; m++)
        std::printf("err[%d] = %.10g\n", m, std::sqrt(err[m]));
    return 0;
}
