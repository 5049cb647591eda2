// corpus: Stencil, a C++ field class over std::vector with an accessor; each point updated in place from its own value and the 5-point Laplacian of another field (r(i,j) += c * lap(u))
// args: test=32 3 bench=1400 60
#include <cstdio>
#include <cstdlib>
#include <vector>

class Field {
public:
    Field(int rows, int cols) : rows_(rows), cols_(cols), data_((size_t)rows * cols, 0.0) {}
    double &operator()(int i, int j) { return data_[(size_t)i * cols_ + j]; }
    double operator()(int i, int j) const { return data_[(size_t)i * cols_ + j]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    const double *data() const { return data_.data(); }
    size_t size() const { return data_.size(); }

private:
    int rows_, cols_;
    std::vector<double> data_;
};

/* r += c * (the 5-point Laplacian of u), on the interior. */
void add_laplacian(Field &r, const Field &u, double c)
{
    for (int i = 1; i < u.rows() - 1; i++) {                 // expect: Stencil in add_laplacian
        for (int j = 1; j < u.cols() - 1; j++)
            r(i, j) = r(i, j) + c * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1)
                                     - 4.0 * u(i, j));
    }
}

/* u += dt * r everywhere: each point from its own values only, no neighbour. */
void advance(Field &u, const Field &r, double dt)
{
    for (int i = 0; i < u.rows(); i++)   // expect: Map in advance
        for (int j = 0; j < u.cols(); j++)
            u(i, j) = u(i, j) + dt * r(i, j);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 128;
    int steps = argc > 2 ? std::atoi(argv[2]) : 5;
    if (n < 3) n = 3;
    if (steps < 1) steps = 1;
    Field u(n, n + 1), r(n, n + 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= n; j++)
            u(i, j) = (double)((i * 13 + j * 7) % 19) / 19.0;

    for (int s = 0; s < steps; s++) {
        add_laplacian(r, u, 0.125);
        advance(u, r, 0.01);
    }

    double sum = 0.0, sq = 0.0;
    const double *rd = r.data(), *ud = u.data();
    for (size_t t = 0; t < r.size(); t++) {                    // expect: Reduction in main
        sum += rd[t];
        sq += ud[t] * ud[t];
    }
    std::printf("n = %d steps = %d\n", n, steps);
    std::printf("sum r = %.10g\n", sum);
    std::printf("sumsq u = %.10g\n", sq);
    std::printf("r(1,2) = %.10g\n", r(1, 2));
    return 0;
}
