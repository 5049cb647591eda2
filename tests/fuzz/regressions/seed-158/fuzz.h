#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>

double p0_reduce(const double *x, const double *y, int lo, int hi);
