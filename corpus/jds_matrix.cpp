// corpus: C++ jagged-diagonal matrix class (std::vector, long diagonal offsets) built from rows, in a Richardson solve
// args: test=300 10 bench=300000 200
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class JdsMatrix {
public:
    /* rows[i] lists (column, value) pairs of row i */
    explicit JdsMatrix(const std::vector<std::vector<std::pair<int, double>>> &rows);
    void apply(const std::vector<double> &x, std::vector<double> &y) const;
    long nnz() const { return jdPtr_.back(); }

private:
    int n_;
    std::vector<int> perm_, rowLen_, colIdx_;
    std::vector<long> jdPtr_;
    std::vector<double> vals_;
};

JdsMatrix::JdsMatrix(const std::vector<std::vector<std::pair<int, double>>> &rows) : n_((int)rows.size())
{
    /* bucket the rows by length, then read the buckets from the longest down (a stable sort) */
    std::vector<std::vector<int>> byLen;
    for (int i = 0; i < n_; i++) {
        std::size_t len = rows[i].size();
        if (len >= byLen.size())
            byLen.resize(len + 1);
        byLen[len].push_back(i);
    }
    for (std::size_t l = byLen.size(); l-- > 0;)
        perm_.insert(perm_.end(), byLen[l].begin(), byLen[l].end());
    rowLen_.resize(n_);
    for (int r = 0; r < n_; r++)
        rowLen_[r] = (int)rows[perm_[r]].size();
    int ndiag = n_ > 0 ? rowLen_[0] : 0;
    jdPtr_.assign(1, 0);
    for (int d = 0, live = n_; d < ndiag; d++) {
        while (live > 0 && rowLen_[live - 1] <= d)
            live--;
        jdPtr_.push_back(jdPtr_.back() + live);
        for (int r = 0; r < live; r++) {
            colIdx_.push_back(rows[perm_[r]][d].first);
            vals_.push_back(rows[perm_[r]][d].second);
        }
    }
}

/* JdsMatrix::apply: y = A x, sorted row r scattered to y[perm_[r]] */
void JdsMatrix::apply(const std::vector<double> &x, std::vector<double> &y) const
{
    for (int r = 0; r < n_; r++) {   // expect: SpMV_JDS in JdsMatrix::apply
        double s = 0.0;
        for (int d = 0; d < rowLen_[r]; d++) {
            long j = jdPtr_[d] + r;
            s += vals_[j] * x[colIdx_[j]];
        }
        y[perm_[r]] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 10000;
    int iters = argc > 2 ? std::atoi(argv[2]) : 20;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;

    /* diagonally dominant: 6 on the diagonal, 0..7 couplings of -0.5 at pseudo-random columns */
    std::vector<std::vector<std::pair<int, double>>> rows(n);
    unsigned seed = 1234567u;
    for (int i = 0; i < n; i++) {
        rows[i].push_back({ i, 6.0 });
        seed = seed * 1103515245u + 12345u;
        int extra = (int)((seed >> 16) % 8u);
        for (int e = 0; e < extra; e++) {
            seed = seed * 1103515245u + 12345u;
            rows[i].push_back({ (int)((seed >> 8) % (unsigned)n), -0.5 });
        }
    }
    JdsMatrix A(rows);

    std::vector<double> b(n), x(n, 0.0), ax(n);
    for (int i = 0; i < n; i++)
        b[i] = std::cos(0.05 * (double)i);
    for (int it = 0; it < iters; it++) {   /* x <- x + (b - A x) / 6 */
        A.apply(x, ax);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] += (b[i] - ax[i]) / 6.0;
    }

    double cs = 0.0, sq = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += x[i];
        sq += x[i] * x[i];
    }
    std::printf("nnz %ld\n", A.nnz());
    std::printf("sum %.10g norm %.10g\n", cs, std::sqrt(sq));
    return 0;
}
