/* Hand-written histograms of int keys (each in 0 .. BINS - 1) in variants chosen by
   macros, each work-group counting into bins in local memory and adding them to the
   global bins once: COPIES copies of the local bins (work-item i adds into copy
   i % COPIES, so that the items of a warp contend less on one bin), VEC keys read at
   once by a work-item (1 or 4, as an int4), every work-item striding by the grid.
   Measured by benchmarks/histogram_variants.py. */
#define STRIDE (BINS + PAD)

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void histogram_variant(__global const int* keys, __global int* bins, int n) {
    __local int mine[COPIES * STRIDE];
    const int lid = get_local_id(0);
    for (int b = lid; b < COPIES * STRIDE; b += GROUP) mine[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int* own = mine + (lid % COPIES) * STRIDE;
#if VEC == 4
    const int quads = n / 4;
    for (int i = get_global_id(0); i < quads; i += get_global_size(0)) {
        const int4 k = vload4(i, keys);
        atomic_add(own + k.x, 1);
        atomic_add(own + k.y, 1);
        atomic_add(own + k.z, 1);
        atomic_add(own + k.w, 1);
    }
    for (int i = 4 * quads + get_global_id(0); i < n; i += get_global_size(0))
        atomic_add(own + keys[i], 1);
#elif UNROLL
    const int step = get_global_size(0);
    int i = get_global_id(0);
    for (; i + (UNROLL - 1) * step < n; i += UNROLL * step) {
        int k[UNROLL];
        for (int u = 0; u < UNROLL; u++) k[u] = keys[i + u * step];
        for (int u = 0; u < UNROLL; u++) atomic_add(own + k[u], 1);
    }
    for (; i < n; i += step) atomic_add(own + keys[i], 1);
#else
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_add(own + keys[i], 1);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = lid; b < BINS; b += GROUP) {
        int sum = 0;
        for (int c = 0; c < COPIES; c++) sum += mine[c * STRIDE + b];
        if (sum) atomic_add(&bins[b], sum);
    }
}
