#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

extern int p0_g_sum;
void p0_accumulate(const int *x, const int *w, int n, int *out);
void p1_sweep(int rows, int cols, int ld, const float *in, float *out);
double fz_host0(int *a, long len, int t);
