// corpus: Reduction, accumulators kept in memory: five residual norms rms[m] summed over a 3D grid of 5-component cells, a total accumulated through an output pointer, sums in the fields of a struct
// args: test=12 3 bench=96 200
#include <stdio.h>
#include <stdlib.h>

#define NG 96

struct stats {
    long count;
    double sum;
    double sumsq;
};

double grid[NG][NG][NG][5];

/* rms[m] = sum over the interior cells of grid[k][j][i][m]^2, m = 0..4 */
void residual_norms(int n, double rms[5])
{
    for (int m = 0; m < 5; m++)
        rms[m] = 0.0;
    for (int k = 1; k < n - 1; k++) {             // expect: Reduction in residual_norms
        for (int j = 1; j < n - 1; j++) {
            for (int i = 1; i < n - 1; i++) {
                for (int m = 0; m < 5; m++) {
                    double add = grid[k][j][i][m];
                    rms[m] = rms[m] + add * add;
                }
            }
        }
    }
}

/* *total += a[i] * w[i]: the total lives behind a pointer that may alias a or w */
void weighted_total(const double *a, const double *w, int n, double *total)
{
    for (int i = 0; i < n; i++)                   // expect: Reduction in weighted_total
        *total += a[i] * w[i];
}

/* the sum and the sum of squares of x, kept in the fields of *st */
void accumulate_stats(struct stats *st, const double *x, int n)
{
    for (int i = 0; i < n; i++) {                 // expect: Reduction in accumulate_stats
        st->sum += x[i];
        st->sumsq += x[i] * x[i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 3) n = 3;
    if (n > NG) n = NG;
    if (reps < 1) reps = 1;
    int len = n * n * n;

    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                for (int m = 0; m < 5; m++)
                    grid[k][j][i][m] = (double)((k * 7 + j * 5 + i * 3 + m) % 11) / 11.0 - 0.4;
    double *a = malloc((size_t)len * sizeof *a);
    double *w = malloc((size_t)len * sizeof *w);
    if (!a || !w) return 1;
    for (int i = 0; i < len; i++) {
        a[i] = (double)((i * 13) % 17) / 17.0;
        w[i] = 1.0 + (double)(i % 5) * 0.25;
    }

    double rms[5], total = 0.0;
    struct stats st = {0, 0.0, 0.0};
    for (int r = 0; r < reps; r++) {
        residual_norms(n, rms);
        weighted_total(a, w, len, &total);
        accumulate_stats(&st, a, len);
        st.count += len;
    }

    double rsum = 0.0;
    for (int m = 0; m < 5; m++)                   // expect: Reduction in main
        rsum += rms[m];
    printf("n = %d reps = %d\n", n, reps);
    for (int m = 0; m < 5; m++)
        printf("rms[%d] = %.10g\n", m, rms[m]);
    printf("rms sum = %.10g\n", rsum);
    printf("total = %.10g\n", total);
    printf("count = %ld sum = %.10g sumsq = %.10g\n", st.count, st.sum, st.sumsq);
    free(a);
    free(w);
    return 0;
}
