// corpus: total mass and energy of a fixed-size global 2D field, reduced over its flattened index (macros, int counters)
// args: test=64 3 bench=2048 1000
#include <stdio.h>
#include <stdlib.h>

#define NY 2048
#define NX 512
#define RHO(j, i) rho[j][i]

double rho[NY][NX];

/* field_mass: sum of the first rows*NX cells of rho, read as one flat array */
double field_mass(int rows)
{
    const double *flat = &rho[0][0];
    double m = 0.0;
    for (int k = 0; k < rows * NX; k++)   // expect: Reduction in field_mass
        m += flat[k];
    return m;
}

/* field_energy: sum of rho^2 / 2 over the same cells, counting down */
double field_energy(int rows)
{
    const double *flat = &rho[0][0];
    double e = 0.0;
    for (int k = rows * NX - 1; k >= 0; k--)   // expect: Reduction in field_energy
        e += 0.5 * flat[k] * flat[k];
    return e;
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 256;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (rows < 1)
        rows = 1;
    if (rows > NY)
        rows = NY;
    if (iters < 1)
        iters = 1;

    for (int j = 0; j < rows; j++)
        for (int i = 0; i < NX; i++)
            RHO(j, i) = 1.0 + 0.25 * (double)((i * 3 + j * 5) % 8) - 0.01 * (double)(j % 10);

    double *mass = malloc((size_t)iters * sizeof *mass);
    double *energy = malloc((size_t)iters * sizeof *energy);
    if (!mass || !energy)
        return 1;
    for (int it = 0; it < iters; it++) {
        RHO(it % rows, it % NX) += 1.0;   /* a point source between steps */
        mass[it] = field_mass(rows);
        energy[it] = field_energy(rows);
    }

    double dm = 0.0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        dm += energy[it] - mass[it];
    printf("mass %.10g energy %.10g\n", mass[iters - 1], energy[iters - 1]);
    printf("checksum %.10g\n", dm);
    free(mass);
    free(energy);
    return 0;
}
