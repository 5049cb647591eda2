// direct: trmm_ikj_alpha_class.cpp: trmm_ikj_lower_alpha's loop nest as a cblas_dtrmm call (Left, Lower, NoTrans, Unit)
// args: test=33 29 bench=2000 1900
#include <cstdio>
#include <cstdlib>
#include <cblas.h>
#include <vector>

struct Dense {
    int rows, cols;
    std::vector<double> v;  // row-major, rows cols apart
    Dense(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * c) {}
};

// B <- alpha * L * B in place, L the unit lower triangle of the m x m matrix A (its diagonal
// taken as one and not read, its strictly upper triangle never read), B m x n. Row i adds
// a[i][k] times each row k above it, which the rows counting down have not updated (nor
// scaled) yet, and is then scaled.
void trmm_ikj_lower_alpha(double alpha, const Dense& A, Dense& B)
{
    const int m = B.rows, n = B.cols;
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, m, n,
                    alpha, A.v.data(), A.cols, B.v.data(), B.cols);
}

int main(int argc, char** argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 300;
    int n = argc > 2 ? std::atoi(argv[2]) : 260;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    Dense A(m, m), B(m, n);
    // the strictly lower triangle of either sign, at most 1/m; the diagonal and the upper
    // triangle hold values the product must not read
    for (int i = 0; i < m; ++i)
        for (int k = 0; k < m; ++k)
            A.v[i * m + k] = k < i ? (static_cast<double>((i * 9 + k * 14) % 41) - 16.0) / (41.0 * m)
                           : k == i ? 17.0 : -260.0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            B.v[i * n + j] = 0.4 + static_cast<double>((i * 8 + j * 3) % 21) * 0.05;

    trmm_ikj_lower_alpha(1.5, A, B);

    // B weighted by position, and its first column
    double total = 0.0, weighted = 0.0;
    for (long t = 0; t < static_cast<long>(m) * n; ++t) {
        total += B.v[t];
        weighted += B.v[t] * static_cast<double>(1 + t % 7);
    }
    double first_col = 0.0;
    for (int i = 0; i < m; ++i)
        first_col += B.v[static_cast<long>(i) * n];

    std::printf("m n = %d %d\n", m, n);
    std::printf("sum = %.10g\n", total);
    std::printf("weighted = %.10g\n", weighted);
    std::printf("first column = %.10g\n", first_col);
    std::printf("B(0,0) = %.10g  B(m/2,n/3) = %.10g  B(m-1,n-1) = %.10g\n", B.v[0],
                B.v[static_cast<long>(m / 2) * n + n / 3], B.v[static_cast<long>(m) * n - 1]);
    return 0;
}
