// corpus: C++ sparse matrix kept as tables of row pointers (std::vector<double*> rowVals, std::vector<int*> rowCols, rowLen) into contiguous storage, apply in damped Jacobi on a 9-point 2D operator
// args: test=20 6 bench=700 300
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

class RowTableMatrix {
public:
    RowTableMatrix(int nrow, int maxPerRow)
        : nrow_(nrow), rowVals(nrow), rowCols(nrow), rowLen(nrow, 0)
    {
        vals_.resize((size_t)nrow * maxPerRow);
        cols_.resize((size_t)nrow * maxPerRow);
    }
    /* rows must be set in order: row i starts where row i - 1 ended */
    void setRow(int i, int len, const double *v, const int *c)
    {
        size_t start = i == 0 ? 0 : (size_t)(rowVals[i - 1] - vals_.data()) + rowLen[i - 1];
        rowVals[i] = vals_.data() + start;
        rowCols[i] = cols_.data() + start;
        rowLen[i] = len;
        for (int k = 0; k < len; k++) {
            rowVals[i][k] = v[k];
            rowCols[i][k] = c[k];
        }
    }
    int rows() const { return nrow_; }
    void apply(const double *x, double *y) const;

private:
    int nrow_;
    std::vector<double> vals_;
    std::vector<int> cols_;
    std::vector<double *> rowVals;
    std::vector<int *> rowCols;
    std::vector<int> rowLen;
};

/* RowTableMatrix::apply: y = A x */
void RowTableMatrix::apply(const double *x, double *y) const
{
    for (int i = 0; i < nrow_; i++) {   // expect: SpMV_CSR in RowTableMatrix::apply
        const double *v = rowVals[i];
        const int *c = rowCols[i];
        int len = rowLen[i];
        double s = 0.0;
        for (int k = 0; k < len; k++)
            s += v[k] * x[c[k]];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 200;
    int iters = argc > 2 ? std::atoi(argv[2]) : 30;
    if (m < 3)
        m = 3;
    if (iters < 1)
        iters = 1;

    /* 9-point box operator: weight 1 on edges, 0.5 on corners, diagonal = 1.05 x the
       sum of the weights present */
    int n = m * m;
    RowTableMatrix A(n, 9);
    std::vector<double> diag(n), b(n), x(n, 0.0), ax(n);
    unsigned s = 555u;
    for (int iy = 0; iy < m; iy++)
        for (int ix = 0; ix < m; ix++) {
            int r = iy * m + ix, len = 0;
            double v[9], wsum = 0.0;
            int c[9];
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int jy = iy + dy, jx = ix + dx;
                    if (jy < 0 || jy >= m || jx < 0 || jx >= m)
                        continue;
                    c[len] = jy * m + jx;
                    if (dx == 0 && dy == 0) {
                        v[len] = 0.0;   /* set below */
                    } else {
                        double wgt = (dx != 0 && dy != 0) ? 0.5 : 1.0;
                        v[len] = -wgt;
                        wsum += wgt;
                    }
                    len++;
                }
            for (int k = 0; k < len; k++)
                if (c[k] == r)
                    v[k] = diag[r] = 1.05 * wsum;
            A.setRow(r, len, v, c);
            s = s * 1103515245u + 12345u;
            b[r] = (double)((s >> 16) & 1023u) / 512.0 - 1.0;
        }

    /* damped Jacobi: x <- x + 0.8 (b - A x) / diag */
    double res = 0.0;
    for (int it = 0; it < iters; it++) {
        A.apply(x.data(), ax.data());
        double r2 = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            r2 += (b[i] - ax[i]) * (b[i] - ax[i]);
        res = std::sqrt(r2);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] += 0.8 * (b[i] - ax[i]) / diag[i];
    }

    double cs = 0.0, ca = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += x[i];
        ca += std::fabs(x[i]);
    }
    std::printf("rows %d\n", A.rows());
    std::printf("residual %.6e\n", res);
    std::printf("sum x %.10g sum |x| %.10g\n", cs, ca);
    return 0;
}
