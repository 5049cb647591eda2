// corpus: C++ class holding a float CSR matrix numbered from 1 (Fortran layout kept from an import), multiply through raw pointers, explicit diffusion steps
// args: test=600 5 bench=400000 1100
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class FortranCsr {
public:
    explicit FortranCsr(int n) : n_(n) { ia_.push_back(1); }
    void add(int col1, float v) { ja_.push_back(col1); a_.push_back(v); }
    void endRow() { ia_.push_back((int)ja_.size() + 1); }
    int rows() const { return n_; }
    int nnz() const { return ia_.back() - 1; }
    void multiply(const float *x, float *y) const;

private:
    int n_;
    std::vector<int> ia_, ja_;   /* row starts and columns, both 1-based */
    std::vector<float> a_;
};

/* FortranCsr::multiply: y = A x (x, y indexed from 0, the stored matrix from 1) */
void FortranCsr::multiply(const float *x, float *y) const
{
    const int *ia = ia_.data();
    const int *ja = ja_.data();
    const float *a = a_.data();
    const int n = n_;
    for (int i = 1; i <= n; i++) {   // expect: SpMV_CSR in FortranCsr::multiply
        float t = 0.0f;
        for (int k = ia[i - 1]; k < ia[i]; k++)
            t += a[k - 1] * x[ja[k - 1] - 1];
        y[i - 1] = t;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 50000;
    int steps = argc > 2 ? std::atoi(argv[2]) : 50;
    if (n < 16)
        n = 16;
    if (steps < 1)
        steps = 1;

    /* graph Laplacian of a ring with chords: L = D - W, every row sums to 0 */
    unsigned s = 99u;
    FortranCsr L(n);
    for (int i = 1; i <= n; i++) {
        s = s * 1664525u + 1013904223u;
        int chord = 1 + (int)((s >> 9) % (unsigned)n);
        if (chord == i)
            chord = i % n + 1;
        float wc = (float)((s >> 20) % 4u + 1u) * 0.125f;
        int left = i == 1 ? n : i - 1, right = i == n ? 1 : i + 1;
        L.add(left, -1.0f);
        L.add(i, 2.0f + wc);
        L.add(right, -1.0f);
        L.add(chord, -wc);
        L.endRow();
    }

    std::vector<float> u(n), lu(n);
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        u[i] = (float)((s >> 16) % 1000u) / 1000.0f;
    }

    const float dt = 0.1f;
    for (int st = 0; st < steps; st++) {
        L.multiply(u.data(), lu.data());
        for (int i = 0; i < n; i++)   // expect: Map in main
            u[i] -= dt * lu[i];
    }

    double mass = 0.0, energy = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        mass += u[i];
        energy += (double)u[i] * u[i];
    }
    std::printf("nnz %d\n", L.nnz());
    std::printf("mass %.10g energy %.10g\n", mass, energy);
    std::printf("u[0] %.6e u[n-1] %.6e\n", (double)u[0], (double)u[n - 1]);
    return 0;
}
