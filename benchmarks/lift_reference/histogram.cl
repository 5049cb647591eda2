// Hand-written references: a histogram of keys (each in 0 .. bins - 1) added into the
// counts the bins already hold.

// Every work-item walks the keys a grid apart and adds into the global bins.
__kernel void histogram_global(__global const int* keys, __global int* bins, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_add(&bins[keys[i]], 1);
}

// Each work-group counts into its own bins in local memory, then adds them to the global
// bins once (bins <= 4096).
__kernel void histogram_local(__global const int* keys, __global int* bins, int n, int count) {
  __local int mine[4096];
  for (int b = get_local_id(0); b < count; b += get_local_size(0))
    mine[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_add(&mine[keys[i]], 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = get_local_id(0); b < count; b += get_local_size(0))
    if (mine[b])
      atomic_add(&bins[b], mine[b]);
}
