// corpus: Stencil, C++ 2D central-difference gradient magnitude (L1) with std::fabs, float, std::vector, single sweep repeated
// args: test=40 3 bench=3000 300
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

/* g = |f(i,j+1) - f(i,j-1)| + |f(i+1,j) - f(i-1,j)|, halved, on the interior of an ny x nx image. */
void grad_l1(int ny, int nx, const std::vector<float> &f, std::vector<float> &g)
{
    for (int i = 1; i < ny - 1; ++i) {        // expect: Stencil in grad_l1
        for (int j = 1; j < nx - 1; ++j) {
            const float dx = f[i * nx + j + 1] - f[i * nx + j - 1];
            const float dy = f[(i + 1) * nx + j] - f[(i - 1) * nx + j];
            g[i * nx + j] = 0.5f * (std::fabs(dx) + std::fabs(dy));
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 512;
    int reps = argc > 2 ? std::atoi(argv[2]) : 3;
    if (n < 3) n = 3;
    if (reps < 1) reps = 1;
    const int ny = n, nx = n + 5;

    std::vector<float> f(static_cast<std::size_t>(ny) * nx), g(f.size());
    for (int i = 0; i < ny; ++i)
        for (int j = 0; j < nx; ++j) {
            f[i * nx + j] = static_cast<float>((i * i + 3 * j) % 23) * 0.25f;
            g[i * nx + j] = -1.0f;   /* border keeps this marker value */
        }

    for (int r = 0; r < reps; ++r)
        grad_l1(ny, nx, f, g);

    double sum = 0.0, mx = 0.0;
    for (std::size_t k = 0; k < g.size(); ++k) {   // expect: Reduction in main
        sum += g[k];
        mx = g[k] > mx ? g[k] : mx;
    }
    std::printf("ny nx = %d %d reps = %d\n", ny, nx, reps);
    std::printf("sum = %.6e\n", sum);
    std::printf("max = %.6e\n", mx);
    std::printf("g[1][1] = %.6e\n", static_cast<double>(g[nx + 1]));
    return 0;
}
