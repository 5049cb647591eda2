// corpus: near-miss GEMV, row loops computing two dot products over one shared inner loop and combining them after it, in ways that are not y = alpha A x + beta B x
// args: test=36 2 bench=1500 300
// near-miss: product_combine multiplies the two sums (y[i] = s * t, the elementwise product of A x and B x, no linear combination of them); reads_output's second sum reads the vector it is writing (y[i] += B[i][j] * y[j]: rows already finished and the partial sum of its own row, a Gauss-Seidel-like sweep, not B x); carried_sum never clears its second sum between rows (t runs over the whole matrix, so y[i] takes a prefix sum of B x)
#include <stdio.h>
#include <stdlib.h>

/* y[i] = (A x)[i] * (B x)[i]: the two dot products multiplied. */
void product_combine(int n, const double *A, const double *B, const double *x, double *y)
{
    // the sums are multiplied, not added with scales
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        double s = 0.0, t = 0.0;
        for (int j = 0; j < n; j++) {          // expect: Reduction in product_combine
            s += A[i * n + j] * x[j];
            t += B[i * n + j] * x[j];
        }
        y[i] = s * t;
    }
}

/* tmp = A x beside y[i] = sum_j B[i][j] y[j], summed in place: the second product reads
   the vector being written (y[j] for j < i already final, y[i] its own partial sum). */
void reads_output(int n, double alpha, double beta, const double *A, const double *B,
                  const double *x, double *tmp, double *y)
{
    // the second sum reads y, the vector the sweep is writing
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < n; j++) {          // expect: Reduction in reads_output
            tmp[i] = A[i * n + j] * x[j] + tmp[i];
            y[i] = B[i * n + j] * y[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

/* y[i] = alpha (A x)[i] + beta sum_{k <= i} (B x)[k]: t is cleared once, before the rows. */
void carried_sum(int n, double alpha, double beta, const double *A, const double *B,
                 const double *x, double *y)
{
    double t = 0.0;
    // the second sum runs on from row to row
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        double s = 0.0;
        for (int j = 0; j < n; j++) {          // expect: Reduction in carried_sum
            s += A[i * n + j] * x[j];
            t += B[i * n + j] * x[j];
        }
        y[i] = alpha * s + beta * t;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    double *A = malloc((size_t)n * n * sizeof *A);
    double *B = malloc((size_t)n * n * sizeof *B);
    double *x = malloc((size_t)n * sizeof *x);
    double *y1 = malloc((size_t)n * sizeof *y1);
    double *y2 = malloc((size_t)n * sizeof *y2);
    double *y3 = malloc((size_t)n * sizeof *y3);
    double *tmp = malloc((size_t)n * sizeof *tmp);
    if (!A || !B || !x || !y1 || !y2 || !y3 || !tmp) return 1;

    /* small positive entries (B scaled by 1/n so that reads_output's sweep stays bounded) */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i * n + j] = 0.5 + (double)((i * 3 + j * 7) % 13) / 26.0;
            B[i * n + j] = (0.2 + (double)((i * 5 + j) % 9) / 18.0) / (double)n;
        }
    for (int j = 0; j < n; j++)
        x[j] = (double)(j % 4 + 1) / 4.0;

    for (int rep = 0; rep < reps; rep++) {
        product_combine(n, A, B, x, y1);
        reads_output(n, 1.5, 0.5, A, B, x, tmp, y2);
        carried_sum(n, 1.5, 0.5, A, B, x, y3);
        for (int j = 0; j < n; j++)   // expect: Map in main
            x[j] = 0.99 * x[j] + 0.01 * (double)(j % 3);
    }

    double s1 = 0.0, s2 = 0.0, s3 = 0.0, st = 0.0;
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        s1 += y1[i] * (double)(i % 3 + 1);
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        s2 += y2[i] * (double)(i % 5 + 1);
        st += tmp[i];
    }
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        s3 += y3[i];
    printf("n = %d reps = %d\n", n, reps);
    printf("product weighted = %.10g\n", s1 / n);
    printf("reads output weighted = %.10g tmp sum = %.10g\n", s2 / n, st / n);
    printf("carried sum = %.10g\n", s3 / n);
    printf("y1[n-1] = %.10g y2[n-1] = %.10g y3[n-1] = %.10g\n", y1[n - 1], y2[n - 1], y3[n - 1]);
    free(A); free(B); free(x); free(y1); free(y2); free(y3); free(tmp);
    return 0;
}
