#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>

struct p0_range { const short *x; const short *y; int lo; int hi; };
int p0_reduce(const struct p0_range *r);
