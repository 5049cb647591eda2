/* Hand-written one-pass scans of ints (decoupled look-back) in variants, chosen by macros:
   GROUP work-items a group, PER neighbouring values an item (a multiple of 4, read and
   written as int4), WINDOW earlier blocks' status words read at once; TREE 0: item 0 folds
   the window in order, 1: item 0 finds where to stop, then a tree folds, 2: a tree folds
   (sum, count, state) pairs, the nearest first, stopping at a prefix or a word not yet
   written; STATIC 1: blocks numbered as launched (no counter: relies on groups starting
   in order, which OpenCL does not promise; measured only); ATOMIC_READS 1: the status
   words read by atomic adds of 0 (coherent by the letter of OpenCL 1.2) instead of
   volatile loads. benchmarks/
   scan_one_pass_variants.py runs them. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define BLOCK (GROUP * PER)
#define ADD(a, b) ((int)((uint)(a) + (uint)(b)))

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void scan_variant(__global const int* x, __global int* out,
                  __global volatile ulong* status, int n, int blocks) {
    __local int sums[2][GROUP];
    __local int taken, begin, more, nearest, limit, done;
    __local uint flags[WINDOW];
    __local int values[WINDOW];
    __local int count[WINDOW];
    const int lid = get_local_id(0);
#if STATIC
    const int g = get_group_id(0);
#else
    if (lid == 0) taken = (int)atom_inc(status + blocks);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = taken;
#endif
    const int first = g * BLOCK + lid * PER;
    int v[PER];
    if (first + PER <= n) {
        for (int k = 0; k < PER / 4; k++) {
            int4 q = vload4(k, x + first);
            v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
        }
    } else {
        for (int k = 0; k < PER; k++) v[k] = first + k < n ? x[first + k] : 0;
    }
    for (int k = 1; k < PER; k++) v[k] = ADD(v[k], v[k - 1]);
    int buffer = 0;
    sums[0][lid] = v[PER - 1];
    for (int d = 1; d < GROUP; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const int t = lid >= d ? sums[buffer][lid - d] : 0;
        sums[1 - buffer][lid] = ADD(sums[buffer][lid], t);
        buffer = 1 - buffer;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int total = sums[buffer][GROUP - 1];
    int acc = 0;
    if (lid == 0) {
        more = g > 0;
        nearest = g - 1;
        begin = 0;
        atom_xchg(status + g, ((ulong)(g == 0 ? 2 : 1) << 32) | (ulong)(uint)total);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    while (more) {
        if (lid < WINDOW) {
            const int j = nearest - lid;
#if ATOMIC_READS
            const ulong w = j >= 0 ? atom_add(status + j, 0UL) : 0;
#else
            const ulong w = j >= 0 ? status[j] : 0;
#endif
            flags[lid] = (uint)(w >> 32);
            values[lid] = (int)(uint)w;
        }
#if TREE == 2
        __local int* sum = values;
        __local uint* state = flags;   /* 0 blocked, 1 open, 2 closed */
        if (lid < WINDOW) count[lid] = state[lid] != 0u;
        if (lid < WINDOW && state[lid] == 0u) sum[lid] = 0;
        for (int d = 1; d < WINDOW; d <<= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < WINDOW && (lid & (2 * d - 1)) == 0 && state[lid] == 1u) {
                sum[lid] = ADD(sum[lid], sum[lid + d]);
                count[lid] += count[lid + d];
                state[lid] = state[lid + d];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            acc = ADD(acc, sum[0]);
            if (state[0] == 2u) more = 0;
            nearest -= count[0];
        }
#elif TREE
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int a = WINDOW, b = WINDOW;
            for (int k = WINDOW - 1; k >= 0; k--) {
                if (flags[k] == 0u) a = k;
                if (flags[k] == 2u) b = k;
            }
            limit = a; done = b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int stop = done < limit ? done + 1 : limit;
        if (lid < WINDOW && lid >= stop) values[lid] = 0;
        for (int s = WINDOW / 2; s > 0; s >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < s) values[lid] = ADD(values[lid], values[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            acc = ADD(acc, values[0]);
            if (done < limit) more = 0;
            nearest -= stop;
        }
#else
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int k = 0;
            for (; k < WINDOW && flags[k] != 0u; k++) {
                acc = ADD(acc, values[k]);
                if (flags[k] == 2u) { more = 0; break; }
            }
            nearest -= k;
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && g > 0) {
        begin = acc;
        atom_xchg(status + g, ((ulong)2 << 32) | (ulong)(uint)ADD(acc, total));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int before = ADD(begin, lid > 0 ? sums[buffer][lid - 1] : 0);
    for (int k = 0; k < PER; k++) v[k] = ADD(v[k], before);
    if (first + PER <= n) {
        for (int k = 0; k < PER / 4; k++) vstore4((int4)(v[4*k], v[4*k+1], v[4*k+2], v[4*k+3]), k, out + first);
    } else {
        for (int k = 0; k < PER; k++) if (first + k < n) out[first + k] = v[k];
    }
}
