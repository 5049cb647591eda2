// Strict upper triangles of a correlation computed by a member function, for the
// differential tests of mappers/targets/syrk.py: the matrix's column count and data
// pointer are its fields, which LLVM loads only in the column loop's preheader, under the
// test `i + 1 < m` that changes with the row (the last row's column loop is empty).
//
//   corr_fields N M MODE
//
// View is a window on storage it does not own. Each kernel writes corr (m x m): the
// strict upper triangle of data^T data divided by n, its mirror and a diagonal of ones;
// main prints all of the block holding the data, corr and a spare element.
// MODE 0: data and corr separate (one SYRK call and its finish each);
//      1: corr's storage is the data's (the guard must decline);
//      2: corr's storage starts one element into the data's (decline).
#include <cstdio>
#include <cstdlib>

class View {
public:
    View(double* v, int rows, int cols) : rows_(rows), cols_(cols), v_(v) {}
    double& operator()(int i, int j) { return v_[static_cast<long>(i) * cols_ + j]; }

    void correlate_all_rows(View& corr);
    void correlate_short_rows(View& corr);

private:
    int rows_, cols_;
    double* v_;
};

// the row loop to m, the diagonal set by it
void View::correlate_all_rows(View& corr)
{
    const int n = rows_, m = cols_;
    for (int i = 0; i < m; ++i) {
        corr(i, i) = 1.0;
        for (int j = i + 1; j < m; ++j) {
            double s = 0.0;
            for (int k = 0; k < n; ++k)
                s += (*this)(k, i) * (*this)(k, j);
            corr(i, j) = s / n;
            corr(j, i) = corr(i, j);
        }
    }
}

// the row loop to m - 1, the diagonal set after it
void View::correlate_short_rows(View& corr)
{
    const int n = rows_, m = cols_;
    for (int i = 0; i < m - 1; ++i) {
        for (int j = i + 1; j < m; ++j) {
            double s = 0.0;
            for (int k = 0; k < n; ++k)
                s += (*this)(k, i) * (*this)(k, j);
            corr(i, j) = s / n;
            corr(j, i) = corr(i, j);
        }
    }
    for (int i = 0; i < m; ++i)
        corr(i, i) = 1.0;
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 5;
    int m = argc > 2 ? std::atoi(argv[2]) : 4;
    int mode = argc > 3 ? std::atoi(argv[3]) : 0;
    long cells = static_cast<long>(n) * m, total = cells + static_cast<long>(m) * m + 1;
    double* block = static_cast<double*>(std::malloc(sizeof(double) * (total + cells + 1)));
    if (!block) return 1;
    double* c = mode == 1 ? block : mode == 2 ? block + 1 : block + cells;
    for (int kernel = 0; kernel < 2; ++kernel) {
        unsigned int seed = 977u + 31u * static_cast<unsigned int>(kernel);
        for (long t = 0; t < total + cells + 1; ++t) {
            seed = seed * 1103515245u + 12345u;
            block[t] = static_cast<double>((seed >> 16) % 2001) / 1000.0 - 1.0;
        }
        View data(block, n, m), corr(c, m, m);
        if (kernel == 0)
            data.correlate_all_rows(corr);
        else
            data.correlate_short_rows(corr);
        std::printf("kernel %d\n", kernel);
        for (long t = 0; t < total + cells + 1; ++t)
            std::printf("[%ld] = %.12g\n", t, block[t]);
    }
    std::free(block);
    return 0;
}
