/* A hand-written inclusive scan of ints in one pass (decoupled look-back, Merrill and
   Garland), a work-group of 256 taking blocks of 1,024 in order: each work-item loads
   four neighbouring values as one int4, the group scans the 256 items' sums in local
   memory (Hillis-Steele), publishes its block's total in a status word (flag in the high
   32 bits: 1 total, 2 prefix; written by one 64-bit atomic exchange), then its first 32
   items read the words of the 32 blocks before it and item 0 folds them until a prefix,
   publishes its own prefix, and every item stores its four prefixes as one int4.
   `status` holds a word a block and then the counter, zeroed before each launch. */

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define GROUP 256
#define WINDOW 32

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void scan_one_pass(__global const int* x, __global int* out,
                   __global volatile ulong* status, int n, int blocks) {
    __local int sums[2][GROUP];
    __local int taken, begin, more, nearest;
    __local uint flags[WINDOW];
    __local int values[WINDOW];
    const int lid = get_local_id(0);
    if (lid == 0) taken = (int)atom_inc(status + blocks);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = taken;
    const int first = g * GROUP * 4 + lid * 4;
    int4 v;
    if (first + 3 < n) {
        v = vload4(0, x + first);
    } else {
        v.x = first < n ? x[first] : 0;
        v.y = first + 1 < n ? x[first + 1] : 0;
        v.z = first + 2 < n ? x[first + 2] : 0;
        v.w = 0;
    }
    v.y = (int)((uint)v.x + (uint)v.y);
    v.z = (int)((uint)v.y + (uint)v.z);
    v.w = (int)((uint)v.z + (uint)v.w);
    int buffer = 0;
    sums[0][lid] = v.w;
    for (int d = 1; d < GROUP; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const int t = lid >= d ? sums[buffer][lid - d] : 0;
        sums[1 - buffer][lid] = (int)((uint)sums[buffer][lid] + (uint)t);
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
            const ulong w = j >= 0 ? status[j] : 0;
            flags[lid] = (uint)(w >> 32);
            values[lid] = (int)(uint)w;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int k = 0;
            for (; k < WINDOW && flags[k] != 0u; k++) {
                acc = (int)((uint)acc + (uint)values[k]);
                if (flags[k] == 2u) {
                    more = 0;
                    break;
                }
            }
            nearest -= k;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && g > 0) {
        begin = acc;
        atom_xchg(status + g, ((ulong)2 << 32) | (ulong)(uint)((uint)acc + (uint)total));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int before = (int)((uint)begin + (uint)(lid > 0 ? sums[buffer][lid - 1] : 0));
    v.x = (int)((uint)v.x + (uint)before);
    v.y = (int)((uint)v.y + (uint)before);
    v.z = (int)((uint)v.z + (uint)before);
    v.w = (int)((uint)v.w + (uint)before);
    if (first + 3 < n) {
        vstore4(v, 0, out + first);
    } else {
        if (first < n) out[first] = v.x;
        if (first + 1 < n) out[first + 1] = v.y;
        if (first + 2 < n) out[first + 2] = v.z;
    }
}
