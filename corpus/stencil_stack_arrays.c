// corpus: a 1D smoother on arrays local to the function (on the stack), called again and again with other calls reusing the same stack in between
// args: test=3 bench=4000
#include <stdio.h>
#include <stdlib.h>

#define N 6000

/* smooth: relaxes a local profile for `steps` sweeps and returns its sum */
double smooth(int steps, double seed)
{
    double a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = seed + (double)(i % 7);
    b[0] = a[0];
    b[N - 1] = a[N - 1];
    for (int s = 0; s < steps; s++) {
        for (int i = 1; i < N - 1; i++)   // expect: Stencil in smooth
            b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
        for (int i = 1; i < N - 1; i++)   // expect: Stencil in smooth
            a[i] = 0.25 * b[i - 1] + 0.5 * b[i] + 0.25 * b[i + 1];
    }
    double total = 0.0;
    for (int i = 0; i < N; i++)   // expect: Reduction in smooth
        total += a[i];
    return total;
}

/* scribble: fills a large local buffer, reusing the stack smooth used */
int scribble(int k)
{
    volatile int junk[2 * N];
    for (int i = 0; i < 2 * N; i++)
        junk[i] = k + i;
    return junk[k % (2 * N)];
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    long check = 0;
    for (int r = 0; r < rounds; r++) {
        double total = smooth(r % 5 + 1, (double)r);
        check += scribble(r);
        printf("round %d total %.10g\n", r, total);
    }
    printf("check %ld\n", check);
    return 0;
}
