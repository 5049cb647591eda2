/* The kernel half of a two-file program: a dot product in its own translation unit. */
double weighted_sum(long n, const double *w, const double *v)
{
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += w[i] * v[i];
    return s;
}
