/* A hand-written inclusive scan of ints in two kernels, one element per work-item, a
   work-group of 256: each group's total (a tree in local memory), then each group's scan
   (Hillis-Steele in local memory) from its start, the starts scanned between them on the
   host. Loads and stores coalesce. */

__kernel void scan_block_totals(__global const int* x, __global int* totals, int n) {
    __local int tmp[256];
    int lid = get_local_id(0), gid = get_global_id(0);
    tmp[lid] = gid < n ? x[gid] : 0;
    for (int s = 128; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s) tmp[lid] = (int)((uint)tmp[lid] + (uint)tmp[lid + s]);
    }
    if (lid == 0) totals[get_group_id(0)] = tmp[0];
}

__kernel void scan_blocks(__global const int* x, __global const int* starts,
                          __global int* out, int n) {
    __local int tmp[256];
    int lid = get_local_id(0), gid = get_global_id(0);
    tmp[lid] = gid < n ? x[gid] : 0;
    for (int d = 1; d < 256; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        int t = lid >= d ? tmp[lid - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] = (int)((uint)tmp[lid] + (uint)t);
    }
    if (gid < n) out[gid] = (int)((uint)tmp[lid] + (uint)starts[get_group_id(0)]);
}
