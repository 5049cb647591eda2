/* Histograms into bins narrower than 32 bits: unsigned and signed bytes, shorts. The
   counts wrap at 2^8 and 2^16 as the loop's own adds do (n up to 100,000). Bins start at
   an odd address (h + 1) and end where their allocation ends (255 or 1001 bytes, not a
   multiple of 4), so that a kernel's adds into the words around them must leave the
   neighbouring bytes as they were. More bins than a work-group keeps in local memory
   (9,973) too. Arguments: n, case. */
#include <stdio.h>
#include <stdlib.h>

void count_bytes(int n, const unsigned char *px, unsigned char *h)
{
    for (int i = 0; i < n; i++)
        h[px[i]]++;
}

void count_shorts(int n, const int *key, unsigned short *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] % 1000]++;
}

void signed_weights(int n, const int *key, const signed char *w, signed char *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] & 63] += w[i];
}

void short_weights(int n, const int *key, const short *w, short *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] % 500] += w[i];
}

void count_bytes_wide(int n, const int *key, unsigned char *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] * 37 % 9973]++;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int which = argc > 2 ? atoi(argv[2]) : 0;
    if (n < 1)
        n = 1;
    unsigned char *px = malloc((size_t)n);
    int *key = malloc((size_t)n * sizeof *key);
    signed char *sw = malloc((size_t)n);
    short *ww = malloc((size_t)n * sizeof *ww);
    /* 1 + 254 byte bins: the bins of count_bytes are h8 + 1 .. h8 + 255 */
    unsigned char *h8 = malloc(256);
    unsigned short *h16 = malloc(1001 * sizeof *h16);
    signed char *s8 = malloc(64);
    short *s16 = malloc(500 * sizeof *s16);
    unsigned char *wide = malloc(9973);
    if (!px || !key || !sw || !ww || !h8 || !h16 || !s8 || !s16 || !wide)
        return 1;
    unsigned seed = 2024u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        key[i] = (int)((seed >> 8) % 1000003u);
        px[i] = (unsigned char)(seed >> 20) % 255u;
        sw[i] = (signed char)((seed >> 12) & 0xff);
        ww[i] = (short)((seed >> 4) & 0xffff);
    }
    for (int b = 0; b < 256; b++)
        h8[b] = (unsigned char)(b * 7);
    for (int b = 0; b < 1001; b++)
        h16[b] = (unsigned short)(b * 131);
    for (int b = 0; b < 64; b++)
        s8[b] = (signed char)(b - 32);
    for (int b = 0; b < 500; b++)
        s16[b] = (short)(b * 97 - 20000);
    for (int b = 0; b < 9973; b++)
        wide[b] = (unsigned char)b;

    switch (which) {
    case 0: count_bytes(n, px, h8 + 1); break;
    case 1: count_shorts(n, key, h16 + 1); break;
    case 2: signed_weights(n, key, sw, s8); break;
    case 3: short_weights(n, key, ww, s16); break;
    case 4: count_bytes_wide(n, key, wide); break;
    }
    for (int b = 0; b < 256; b++)
        printf("%d %u %d\n", b, h8[b], b < 64 ? s8[b] : 0);
    for (int b = 0; b < 1001; b++)
        printf("%d %u %d\n", b, h16[b], b < 500 ? s16[b] : 0);
    unsigned long sum = 0;
    for (int b = 0; b < 9973; b++)
        sum = sum * 31u + wide[b];
    printf("wide %lu\n", sum);
    free(px);
    free(key);
    free(sw);
    free(ww);
    free(h8);
    free(h16);
    free(s8);
    free(s16);
    free(wide);
    return 0;
}
