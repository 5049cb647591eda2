// corpus: GEMV, a transposed update and a row dot product over one sweep of A (s += A^T r beside q += A p, the BiCG kernel), a Matrix class over std::vector<double> with an accessor, the kernel taking the vectors as raw pointers that may alias (q[i] loaded and stored on every trip), q accumulating onto its old value over the column panels of a matrix (the caller clears it), inside biconjugate-gradient solves of a nonsymmetric system
// args: test=45 4 2 bench=2000 24 8
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class Matrix {
public:
    Matrix(int rows, int cols)
        : rows_(rows), cols_(cols), data_(static_cast<std::size_t>(rows) * cols, 0.0) {}
    double& at(int i, int j) { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    double at(int i, int j) const { return data_[static_cast<std::size_t>(i) * cols_ + j]; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }

private:
    int rows_, cols_;
    std::vector<double> data_;
};

// One column panel P (n x w) of the system matrix, columns c0 .. c0+w-1: q += P p and
// s += P^T r, where p and s are the panel's part of the full vectors.
void panel_bicg(const Matrix& P, const double* r, const double* p, double* s, double* q)
{
    const int n = P.rows(), w = P.cols();
    for (int i = 0; i < n; ++i)                // expect: GEMV in panel_bicg
        for (int j = 0; j < w; ++j) {
            s[j] += r[i] * P.at(i, j);
            q[i] += P.at(i, j) * p[j];
        }
}

// entry (i, j) of the n x n system: a convection-diffusion band on a small positive
// dense background
static double entry(int n, int i, int j)
{
    double a = 0.4 * (1.0 + 0.25 * ((i * 7 + j * 3) % 5)) / n;
    if (i == j) a += 2.05;
    if (j == i - 1) a -= 1.15;
    if (j == i + 1) a -= 0.85;
    return a;
}

double dot(const std::vector<double>& a, const std::vector<double>& b)
{
    double s = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k)   // expect: Reduction in dot
        s += a[k] * b[k];
    return s;
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 300;
    int steps = argc > 2 ? std::atoi(argv[2]) : 10;
    int solves = argc > 3 ? std::atoi(argv[3]) : 2;
    if (n < 4) n = 4;
    if (steps < 1) steps = 1;
    if (solves < 1) solves = 1;

    // the matrix kept as column panels of (at most) 256 columns
    const int width = 256;
    std::vector<Matrix> panels;
    std::vector<int> first;
    for (int c0 = 0; c0 < n; c0 += width) {
        int w = n - c0 < width ? n - c0 : width;
        panels.emplace_back(n, w);
        first.push_back(c0);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < w; ++j)
                panels.back().at(i, j) = entry(n, i, c0 + j);
    }

    std::vector<double> x(n), b(n), r(n), rt(n), p(n), pt(n), q(n), s(n);
    double total_x = 0.0, total_res = 0.0, last_alpha = 0.0;
    for (int sol = 0; sol < solves; ++sol) {
        for (int i = 0; i < n; ++i) {   // expect: Map in main
            b[i] = 1.0 + 0.5 * std::sin(0.01 * (i + 1) * (sol + 1));
            x[i] = 0.0;
            r[i] = b[i];
            rt[i] = b[i];
            p[i] = r[i];
            pt[i] = rt[i];
        }
        double rho = dot(rt, r);
        for (int k = 0; k < steps; ++k) {
            // q = A p and s = A^T pt, panel by panel
            for (int i = 0; i < n; ++i) {
                q[i] = 0.0;
                s[i] = 0.0;
            }
            for (std::size_t c = 0; c < panels.size(); ++c)
                panel_bicg(panels[c], pt.data(), p.data() + first[c], s.data() + first[c], q.data());
            double alpha = rho / dot(pt, q);
            for (int i = 0; i < n; ++i) {   // expect: Map in main
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
                rt[i] -= alpha * s[i];
            }
            double rho_next = dot(rt, r);
            double beta = rho_next / rho;
            rho = rho_next;
            for (int i = 0; i < n; ++i) {   // expect: Map in main
                p[i] = r[i] + beta * p[i];
                pt[i] = rt[i] + beta * pt[i];
            }
            last_alpha = alpha;
        }
        total_x += dot(x, x);
        total_res += std::sqrt(dot(r, r) / dot(b, b));
    }

    double wx = 0.0;
    for (int i = 0; i < n; ++i)                // expect: Reduction in main
        wx += x[i] * (1 + i % 5);
    std::printf("n = %d steps = %d solves = %d\n", n, steps, solves);
    std::printf("x squares over the solves = %.10g\n", total_x);
    std::printf("relative residuals summed = %.10g\n", total_res);
    std::printf("last alpha = %.10g\n", last_alpha);
    std::printf("x weighted = %.10g x[0] = %.10g x[n-1] = %.10g\n", wx, x[0], x[n - 1]);
    return 0;
}
