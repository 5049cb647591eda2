#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

struct p0_mat { int rows; int cols; int ld; double *v; };
void p0_gemm(double alpha, double beta, const struct p0_mat *a, const struct p0_mat *b, struct p0_mat *c);
