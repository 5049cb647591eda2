/* A hand-written one-pass inclusive scan of ints (decoupled look-back) that uses the
   warp instructions of NVIDIA devices through inline PTX (shuffles and ballots), as CUB
   does, where OpenCL 1.2 has none: GROUP work-items a group, PER values an item (a
   multiple of 4); the items' totals scanned by shuffles within each warp of 32 and the
   warps' totals through local memory (two barriers, not log2(GROUP)); the look-back done
   by the first warp alone, 32 status words a round, the nearest prefix found by a ballot.
   STAGE 1: the block read and written through local memory, every global access a
   warp's contiguous int4s; 0: each item reads its PER neighbouring values as int4s.
   WARP_SCAN 0: the group's scan by Hillis-Steele in local memory; WARP_LOOKBACK 0: the
   look-back's window read by the first items and folded by item 0 between barriers. BACKOFF N: a waiting warp sleeps N ns between reads.
   STATIC 1: blocks numbered as launched. LOOKBACK 0: no look-back (a wrong output; the
   ceiling of the rest). Measured by benchmarks/scan_one_pass_warp.py; NVIDIA only. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define BLOCK (GROUP * PER)
#define WARPS (GROUP / 32)
#define ADD(a, b) ((int)((uint)(a) + (uint)(b)))

#if WARP_SCAN || WARP_LOOKBACK
inline int shfl_up(int v, int d) {
    int r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
    return r;
}

inline int shfl_xor(int v, int m) {
    int r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(m));
    return r;
}

inline uint ballot(int p) {
    uint r;
    asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
                 : "=r"(r) : "r"(p));
    return r;
}

inline int warp_sum(int v) {
    for (int m = 16; m > 0; m >>= 1) v = ADD(v, shfl_xor(v, m));
    return v;
}

#endif

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void scan_warp(__global const int* x, __global int* out,
               __global volatile ulong* status, int n, int blocks) {
    __local int warp_totals[WARPS];
    __local int taken, begin;
    __local int sums[2][GROUP];      /* the group's scan without warp instructions */
    __local int more, nearest;       /* the look-back without them */
    __local uint flags[32];
    __local int values[32];
#if STAGE
    __local int4 staged[BLOCK / 4];
#endif
    const int lid = get_local_id(0);
    const int lane = lid & 31;
    const int warp = lid >> 5;
#if STATIC
    const int g = get_group_id(0);
#else
    if (lid == 0) taken = (int)atom_inc(status + blocks);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int g = taken;
#endif
    const int start = g * BLOCK;
    int v[PER];
#if STAGE
    if (start + BLOCK <= n) {
        for (int k = 0; k < PER / 4; k++)
            staged[k * GROUP + lid] = vload4(k * GROUP + lid, x + start);
    } else {
        for (int k = 0; k < PER / 4; k++) {
            const int e = start + 4 * (k * GROUP + lid);
            int4 q;
            q.x = e < n ? x[e] : 0;
            q.y = e + 1 < n ? x[e + 1] : 0;
            q.z = e + 2 < n ? x[e + 2] : 0;
            q.w = e + 3 < n ? x[e + 3] : 0;
            staged[k * GROUP + lid] = q;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < PER / 4; k++) {
        const int4 q = staged[lid * (PER / 4) + k];
        v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
    }
#else
    const int first = start + lid * PER;
    if (first + PER <= n) {
        for (int k = 0; k < PER / 4; k++) {
            const int4 q = vload4(k, x + first);
            v[4 * k] = q.x; v[4 * k + 1] = q.y; v[4 * k + 2] = q.z; v[4 * k + 3] = q.w;
        }
    } else {
        for (int k = 0; k < PER; k++) v[k] = first + k < n ? x[first + k] : 0;
    }
#endif
    for (int k = 1; k < PER; k++) v[k] = ADD(v[k], v[k - 1]);
    const int own = v[PER - 1];
#if WARP_SCAN
    int t = own;
    for (int d = 1; d < 32; d <<= 1) {
        const int y = shfl_up(t, d);
        if (lane >= d) t = ADD(t, y);
    }
    if (lane == 31) warp_totals[warp] = t;
    barrier(CLK_LOCAL_MEM_FENCE);
    int before_warp = 0, total = 0;
    for (int w = 0; w < WARPS; w++) {
        const int s = warp_totals[w];
        if (w < warp) before_warp = ADD(before_warp, s);
        total = ADD(total, s);
    }
#else
    int buffer = 0;
    sums[0][lid] = own;
    for (int d = 1; d < GROUP; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const int y = lid >= d ? sums[buffer][lid - d] : 0;
        sums[1 - buffer][lid] = ADD(sums[buffer][lid], y);
        buffer = 1 - buffer;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int t = sums[buffer][lid];
    const int before_warp = 0;
    const int total = sums[buffer][GROUP - 1];
#endif
#if LOOKBACK && !WARP_LOOKBACK
    int acc = 0;
    if (lid == 0) {
        more = g > 0;
        nearest = g - 1;
        begin = 0;
        atom_xchg(status + g, ((ulong)(g == 0 ? 2 : 1) << 32) | (ulong)(uint)total);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    while (more) {
        if (lid < 32) {
            const int j = nearest - lid;
            const ulong w = j >= 0 ? status[j] : 0;
            flags[lid] = (uint)(w >> 32);
            values[lid] = (int)(uint)w;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int k = 0;
            for (; k < 32 && flags[k] != 0u; k++) {
                acc = ADD(acc, values[k]);
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
        atom_xchg(status + g, ((ulong)2 << 32) | (ulong)(uint)ADD(acc, total));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int prefix = ADD(begin, ADD(before_warp, t - own));
#elif LOOKBACK
    if (warp == 0) {
        if (lane == 0)
            atom_xchg(status + g, ((ulong)(g == 0 ? 2 : 1) << 32) | (ulong)(uint)total);
        int acc = 0;
        int nearest = g - 1;
        while (nearest >= 0) {
            const int j = nearest - lane;
            const ulong word = j >= 0 ? status[j] : ((ulong)2 << 32);
            const uint flag = (uint)(word >> 32);
            if (ballot(flag == 0u) != 0u) {
#if BACKOFF
                asm volatile("nanosleep.u32 %0;" :: "r"(BACKOFF));
#endif
                continue;
            }
            const uint prefixes = ballot(flag == 2u);
            if (prefixes != 0u) {
                const int stop = 31 - clz(prefixes & (~prefixes + 1u));
                acc = ADD(acc, warp_sum(lane <= stop ? (int)(uint)word : 0));
                break;
            }
            acc = ADD(acc, warp_sum((int)(uint)word));
            nearest -= 32;
        }
        if (lane == 0) {
            if (g > 0) atom_xchg(status + g, ((ulong)2 << 32) | (ulong)(uint)ADD(acc, total));
            begin = acc;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int prefix = ADD(begin, ADD(before_warp, t - own));
#else
    const int prefix = ADD(before_warp, t - own);
#endif
    for (int k = 0; k < PER; k++) v[k] = ADD(v[k], prefix);
#if STAGE
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < PER / 4; k++)
        staged[lid * (PER / 4) + k] = (int4)(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (start + BLOCK <= n) {
        for (int k = 0; k < PER / 4; k++)
            vstore4(staged[k * GROUP + lid], k * GROUP + lid, out + start);
    } else {
        for (int k = 0; k < PER / 4; k++) {
            const int e = start + 4 * (k * GROUP + lid);
            const int4 q = staged[k * GROUP + lid];
            if (e < n) out[e] = q.x;
            if (e + 1 < n) out[e + 1] = q.y;
            if (e + 2 < n) out[e + 2] = q.z;
            if (e + 3 < n) out[e + 3] = q.w;
        }
    }
#else
    if (first + PER <= n) {
        for (int k = 0; k < PER / 4; k++)
            vstore4((int4)(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]), k, out + first);
    } else {
        for (int k = 0; k < PER; k++)
            if (first + k < n) out[first + k] = v[k];
    }
#endif
}
