// corpus: C++ CSR matrix class (std::vector storage, multiply method) in explicit heat-equation steps
// args: test=300 10 bench=300000 800
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class SparseMatrix {
public:
    explicit SparseMatrix(int n) : n_(n), rowPtr_(1, 0) {}
    void add(int c, double v) { cols_.push_back(c); vals_.push_back(v); }
    void endRow() { rowPtr_.push_back((int)cols_.size()); }
    int nnz() const { return rowPtr_.back(); }
    void multiply(const std::vector<double> &x, std::vector<double> &y) const;

private:
    int n_;
    std::vector<int> rowPtr_, cols_;
    std::vector<double> vals_;
};

/* SparseMatrix::multiply: y = A x */
void SparseMatrix::multiply(const std::vector<double> &x, std::vector<double> &y) const
{
    for (int i = 0; i < n_; i++) {   // expect: SpMV_CSR in SparseMatrix::multiply
        double s = 0.0;
        for (int k = rowPtr_[i]; k < rowPtr_[i + 1]; k++)
            s += vals_[k] * x[cols_[k]];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 10000;
    int steps = argc > 2 ? std::atoi(argv[2]) : 20;
    if (n < 3)
        n = 3;
    if (steps < 1)
        steps = 1;

    /* periodic 1D Laplacian with a long-range coupling to row (i * 37) mod n */
    SparseMatrix L(n);
    for (int i = 0; i < n; i++) {
        L.add((i + n - 1) % n, -1.0);
        L.add(i, 2.25);
        L.add((i + 1) % n, -1.0);
        L.add((int)(((long)i * 37) % n), -0.25);
        L.endRow();
    }

    std::vector<double> u(n), lu(n);
    for (int i = 0; i < n; i++) {
        long d = i - n / 2;
        u[i] = std::exp(-0.001 * (double)(d * d % 100000));
    }

    const double dt = 0.2;
    for (int s = 0; s < steps; s++) {
        L.multiply(u, lu);
        for (int i = 0; i < n; i++)   // expect: Map in main
            u[i] -= dt * lu[i];
    }

    double mass = 0.0, peak = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        mass += u[i];
        peak = std::fmax(peak, std::fabs(u[i]));
    }
    std::printf("nnz %d\n", L.nnz());
    std::printf("mass %.10g peak %.10g\n", mass, peak);
    return 0;
}
