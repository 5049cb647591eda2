#include "fuzz.h"

long fz_checksum_short(const short *a, long n)
{
    long cs = 0;
    for (long i = 0; i < n; i++)
        cs += (long)a[i] * (long)(i % 7 + 1);
    return cs;
}

short *fz_host0_array;
void fz_host0(long len, int t)
{
    for (long j = len - 1 - t % 2; j >= 0; j -= 5)
        fz_host0_array[j] = (short)(((long)((j) + t) * 7 + 0) % 8);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    int steps = atoi(argv[1]);
    int p0_n = atoi(argv[2]);
    std::vector<short> p0_x_store((size_t)((p0_n) + 8));
    short *p0_x = p0_x_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_x[i] = (short)(((long)(i) * 9 + 4) % 13);
    std::vector<short> p0_y_store((size_t)((p0_n) + 8));
    short *p0_y = p0_y_store.data();
    for (long i = 0; i < (long)(p0_n) + 8; i++)
        p0_y[i] = (short)(((long)(i) * 11 + 2) % 13);
    for (int t = 0; t < steps; t++) {
        {
        struct p0_range p0_rg = { p0_x + 3, p0_y, (int)(p0_n < 1 ? p0_n : 1), (int)p0_n };
        int p0_r = p0_reduce(&p0_rg);
        printf("p0_r %ld\n", (long)(p0_r));
        }
        {
            fz_host0_array = p0_y;
            fz_host0(((long)(p0_n)), t);
        }
        printf("p0_x %ld\n", fz_checksum_short(p0_x, (long)(p0_n) + 8));
        printf("p0_y %ld\n", fz_checksum_short(p0_y, (long)(p0_n) + 8));
    }
    printf("done\n");
    return 0;
}
