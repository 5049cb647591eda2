#include "fuzz.h"

void p0_gemm(double alpha, double beta, const struct p0_mat *a, const struct p0_mat *b, struct p0_mat *c)
{
    for (int i = 0; i < c->rows; i++)
        for (int j = 0; j < c->cols; j++) {
            c->v[i * c->ld + j] = 0;
            for (int l = 0; l < a->cols; l++)
                c->v[i * c->ld + j] += a->v[i * a->ld + l] * b->v[l * b->ld + j];
        }
}

