// corpus: near-miss Stencil, a prolongation into pairs of points 2i, 2i+1 of rows laid at a pitch given at run time, odd here and one short of what a row's pairs reach
// args: test=9 3 bench=2049 400
// near-miss: the rows move by a pitch of any parity, so the pairs 2i, 2i+1 of one row may meet those of the next (they do here): the order of the updates decides the result
#include <stdio.h>
#include <stdlib.h>

/* Row j of the fine grid starts at j * pitch; its nc - 1 pairs reach 2 nc - 3, past
   the pitch 2 nc - 4 + 1 the driver gives: each row's last pair overlaps the next row. */
void prolong_pitched(int nc, int pitch, double *fine, const double *coarse)
{
    for (int j = 0; j < nc; j++)                               // expect-none: Stencil
        for (int i = 0; i < nc - 1; i++) {
            fine[j * pitch + 2 * i] = 0.5 * fine[j * pitch + 2 * i] + coarse[j * nc + i];
            fine[j * pitch + 2 * i + 1] = 0.5 * fine[j * pitch + 2 * i + 1]
                + 0.5 * (coarse[j * nc + i] + coarse[j * nc + i + 1]);
        }
}

int main(int argc, char **argv)
{
    int nc = argc > 1 ? atoi(argv[1]) : 65;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (nc < 3) nc = 3;
    if (reps < 1) reps = 1;
    int pitch = 2 * nc - 3;
    size_t length = (size_t)pitch * nc + 2;
    double *fine = calloc(length, sizeof(double));
    double *coarse = malloc(sizeof(double) * (size_t)nc * nc);
    if (!fine || !coarse) return 1;
    for (int t = 0; t < nc * nc; t++)
        coarse[t] = (double)((t * 5 + 1) % 17) / 17.0;

    for (int r = 0; r < reps; r++)
        prolong_pitched(nc, pitch, fine, coarse);

    double s = 0.0;
    for (size_t t = 0; t < length; t++)                        // expect: Reduction in main
        s += fine[t] * (double)(t % 11 + 1);
    printf("nc = %d reps = %d\n", nc, reps);
    printf("fine = %.10g\n", s);
    printf("fine[pitch] = %.10g\n", fine[pitch]);
    free(fine); free(coarse);
    return 0;
}
