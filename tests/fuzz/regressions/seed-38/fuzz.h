#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

long p0_reduce(const long *x, const long *y, long lo, long hi);
