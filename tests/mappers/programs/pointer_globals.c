/* Arrays behind file-scope pointers, each filled from its own malloc (as NAS's C++ port
   keeps its grids): the original build knows u, v and w apart (GlobalsAA) and vectorises
   axpy without overlap checks. tests/mappers/rewrite/test_allocations.py */
#include <stdio.h>
#include <stdlib.h>

#define N 100000
static double *u, *v, *w;

__attribute__((noinline)) void axpy(double alpha, int n) {
    for (int i = 0; i < n; i++)
        w[i] = alpha * u[i] + v[i];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : N;
    u = malloc(sizeof(double) * N);
    v = malloc(sizeof(double) * N);
    w = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) { u[i] = 0.5 * i; v[i] = 1.0 / (i + 1); }
    axpy(3.0, n < N ? n : N);
    double s = 0.0;
    for (int i = 0; i < N; i++) s += w[i];
    printf("%.6f\n", s);
    return 0;
}
