/* idiom runtime: the entry points that accelerated programs call.
 *
 * The IR rewriter replaces a matched region by a call to one of these functions, guarded so
 * that the original code runs whenever the call does not return IDIOM_DONE. Hence the rule
 * every entry point follows: unless it returns IDIOM_DONE, it has written nothing.
 *
 * Environment (read on every call, so a program or a test may change it at run time):
 *   IDIOM_DEVICE=auto|cpu|gpu|off   device policy (default auto: BLAS, and OpenCL on a GPU for
 *                                   large problems only); off = no acceleration at all
 *   IDIOM_BLAS_MIN_WORK=N           BLAS calls below N multiply-adds are declined (default 4096)
 *   IDIOM_GPU_MIN_WORK=N            auto picks the GPU from this much work on, whatever its
 *                                   cost model says (default 1<<22; read once, as the three
 *                                   below)
 *   IDIOM_HOST_NS_PER_WORK, IDIOM_LAUNCH_US, IDIOM_TRANSFER_GBS
 *                                   auto's cost model (idiom_policy.h): a loop iteration on the
 *                                   host (0.5 ns), a launch before it is measured (20 us), the
 *                                   copy bandwidth (8 GB/s)
 *   IDIOM_AUTO_DEVICE=cpu           auto considers the CPU OpenCL device, not a GPU (tests)
 *   IDIOM_AUTO_CHECK=0              auto judges a run by its cost model's estimates alone, not
 *                                   by its wall time against a run as compiled
 *   IDIOM_LOAD_AHEAD=0              never load the OpenCL platform from the program's start
 *                                   (by default it is, on a thread, under IDIOM_DEVICE=gpu and
 *                                   under auto where the program's last run paid for it)
 *   IDIOM_CACHE_DIR=DIR             OpenCL program binaries go to DIR/cl, what auto learnt
 *                                   about a program to DIR/policy
 *                                   (else $XDG_CACHE_HOME/idiom, else ~/.cache/idiom)
 *   IDIOM_CL_MIN_WORK=N             loops of fewer iterations stay on the original code
 *   IDIOM_RESIDENT=0                keep no data on the device between calls
 *   IDIOM_VERBOSE=1                 one line per call on stderr
 *   IDIOM_STATS=FILE                one JSON object per call appended to FILE, one a line
 *                                   (buffered: written at exit, when the buffer fills and by a
 *                                   call a second after the last write; O_APPEND, whole lines):
 *     every call  "entry" ("gemm", "gemv", "gemv2", "ger", "syrk", "syr2k", "trmm", "trsv",
 *                 "cl_run"), "status" (the returned code),
 *                 "seconds" (wall time inside the entry point), "pid", "at" (seconds
 *                 from the program's start to the end of the call)
 *     gemm        "elem" (IDIOM_FLOAT/IDIOM_DOUBLE), "m", "n", "k"
 *     gemv        "elem", "m", "n"
 *     gemv2       "elem", "m", "n" (the first product's)
 *     syrk        "elem", "n", "k", "lower" (1: the triangle row >= column, 0: the other)
 *     syr2k       as syrk
 *     trmm        "elem", "m", "n", "upper", "unit" (1: T's diagonal taken as 1)
 *     trsv        "elem", "n", "upper", "unit"
 *     ger         "elem", "m", "n", "products" (1 or 2)
 *     cl_run      "kernel", "device" (name or null), "global" (list of sizes),
 *                 "kernel_seconds" (device time from event profiling; null when the kernel
 *                 did not complete or the call returned before it ran, 0 for an empty range), "transfer_seconds" (host time of the
 *                 buffer writes and reads; null when no launch began), "build_seconds"
 *                 (building or loading the program in this call, 0 when it was in memory),
 *                 "upload_bytes", "download_bytes" (host to device and back, in this call)
 *                 "replayed" (1: a check whose inputs had not changed, not launched: its
 *                 outputs written again, idiom_memo.h), "asynchronous" (1: the call returned
 *                 before its kernel ran, its results left on the device), "wait_seconds"
 *                 (time spent waiting for the device to run the kernel and the commands
 *                 queued before it, earlier launches' kernels included), "enqueue_seconds"
 *                 (host time in clEnqueueNDRangeKernel: the driver's own cost, and its wait
 *                 for room in a full queue to the device; 0 when nothing was launched),
 *                 under auto, once it chose: "policy" (why it launched or declined),
 *                 "host_estimate_seconds", "launch_estimate_seconds" (its model's figures)
 *     host_access "entries" (device copies dropped), "download_bytes", "transfer_seconds";
 *                 written only when a copy was dropped (idiom_host_access_at too)
 *     Durations are in seconds, written to the nanosecond.
 */
#ifndef IDIOM_RUNTIME_H
#define IDIOM_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes returned by every entry point. */
#define IDIOM_DONE 0     /* the work was done, results are in host memory */
#define IDIOM_DECLINED 1 /* not done, nothing written: too small, unsupported layout, off */
#define IDIOM_FAILED 2   /* not done, nothing written: an error, reported once on stderr */

/* Element types of the BLAS entry points. */
#define IDIOM_FLOAT 0
#define IDIOM_DOUBLE 1

/* C(m x n) <- alpha * A(m x k) * B(k x n) + beta * C, elem IDIOM_FLOAT or IDIOM_DOUBLE.
 * Strides are in elements: a_sm is the distance from A[i][p] to A[i+1][p], a_sk from A[i][p]
 * to A[i][p+1]; likewise b_sk, b_sn for B and c_sm, c_sn for C. Every matrix must have a unit
 * stride along one axis and a leading dimension at least the other extent (the stride along an
 * axis of extent 1 is ignored); anything else is declined. beta == 0 never reads C. */
int32_t idiom_gemm(int32_t elem, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                   int64_t a_sm, int64_t a_sk, const void *b, int64_t b_sk, int64_t b_sn,
                   double beta, void *c, int64_t c_sm, int64_t c_sn);

/* y(m) <- alpha * A(m x n) * x(n) + beta * y. Same conventions; x_s and y_s are element
 * strides and must be positive (where the extent exceeds 1). beta == 0 never reads y. */
int32_t idiom_gemv(int32_t elem, int64_t m, int64_t n, double alpha, const void *a, int64_t a_sm,
                   int64_t a_sn, const void *x, int64_t x_s, double beta, void *y, int64_t y_s);

/* Two GEMVs as idiom_gemv, both made or neither (IDIOM_DECLINED, nothing written): the
 * products of one loop (a transposed update and a row dot product sharing a sweep). */
int32_t idiom_gemv2(int32_t elem, int64_t m1, int64_t n1, double alpha1, const void *a1,
                    int64_t a1_sm, int64_t a1_sn, const void *x1, int64_t x1_s, double beta1,
                    void *y1, int64_t y1_s, int64_t m2, int64_t n2, double alpha2,
                    const void *a2, int64_t a2_sm, int64_t a2_sn, const void *x2, int64_t x2_s,
                    double beta2, void *y2, int64_t y2_s);

/* Two row products of one loop combined, y2 = alpha * (A1 x1) + beta * (A2 x2), as
 * idiom_gemv2 lays out the two products (alpha1, beta1, alpha2, beta2 are 1, 0, 1, 0: the
 * sums start from zero). With `keeps_first`, y1 also receives A1 x1 (a tmp the loop keeps);
 * otherwise y1 is y2. Both made or neither (IDIOM_DECLINED, nothing written); a zero or
 * non-finite alpha or beta declines. */
int32_t idiom_gemv_sum(int32_t elem, int64_t m1, int64_t n1, double alpha1, const void *a1,
                       int64_t a1_sm, int64_t a1_sn, const void *x1, int64_t x1_s, double beta1,
                       void *y1, int64_t y1_s, int64_t m2, int64_t n2, double alpha2,
                       const void *a2, int64_t a2_sm, int64_t a2_sn, const void *x2,
                       int64_t x2_s, double beta2, void *y2, int64_t y2_s, int32_t keeps_first,
                       double alpha, double beta);

/* C(m x n) <- alpha * A * B + beta * C, A (m x m) symmetric, only one triangle read: A's
 * (r, t) at r*a_sr + t*a_sc, with t <= r (lower) or t >= r (`upper`), B's (r, c) at
 * r*b_sr + c*b_sc, C's alike. Declines (nothing written) a zero or non-finite alpha or
 * beta, and B and C laid out differently. */
int32_t idiom_symm(int32_t elem, int32_t upper, int64_t m, int64_t n, double alpha,
                   const void *a, int64_t a_sr, int64_t a_sc, const void *b, int64_t b_sr,
                   int64_t b_sc, double beta, void *c, int64_t c_sr, int64_t c_sc);

/* Rows of a batch each replaced by its product with W, in place: nb0 x nb1 rows x, row
 * (r, q) at x + r*x_s0 + q*x_s1 (elements), its k elements x_sk apart; W (k x n) with
 * (s, p) at w + s*w_sk + p*w_sn. The first n elements of each row receive x W, and
 * `sums` (n elements, sums_s apart) the last row's. Declines (nothing written) unless the
 * rows are one element apart along a row and at least a row apart from one another. */
int32_t idiom_gemm_rows(int32_t elem, int64_t nb0, int64_t nb1, void *x, int64_t x_s0,
                        int64_t x_s1, int64_t x_sk, int64_t k, const void *w, int64_t w_sk,
                        int64_t w_sn, int64_t n, void *sums, int64_t sums_s);

/* One triangle of C(n x n) <- alpha * A(n x k) * A^T + beta * C: the elements (r, c) with
 * c <= r when `lower`, c >= r otherwise, (r, c) at r*c_sr + c*c_sc, A's (r, t) at
 * r*a_sn + t*a_sk. The other triangle is neither read nor written. Strides as for
 * idiom_gemm, positive; k == 0 is declined (the loop scales the triangle itself). */
int32_t idiom_syrk(int32_t elem, int32_t lower, int64_t n, int64_t k, double alpha, const void *a,
                   int64_t a_sn, int64_t a_sk, double beta, void *c, int64_t c_sr, int64_t c_sc);

/* One triangle of C <- alpha * A * B^T + alpha * B * A^T + beta * C, as idiom_syrk; A and B
 * (n x k) must be laid out alike (both with unit stride along the same axis). */
int32_t idiom_syr2k(int32_t elem, int32_t lower, int64_t n, int64_t k, double alpha,
                    const void *a, int64_t a_sn, int64_t a_sk, const void *b, int64_t b_sn,
                    int64_t b_sk, double beta, void *c, int64_t c_sr, int64_t c_sc);

/* B(m x n) <- alpha * T * B in place, T (m x m) triangular: T's (r, k) at r*a_sr + k*a_sk,
 * read for k >= r (`upper`) or k <= r, its diagonal taken as 1 and not read when `unit`;
 * B's (r, c) at r*b_sr + c*b_sc. Strides positive, as for idiom_gemm. Declined where an
 * input is not finite or some order of the operations may overflow. */
int32_t idiom_trmm(int32_t elem, int32_t upper, int32_t unit, int64_t m, int64_t n, double alpha,
                   const void *a, int64_t a_sr, int64_t a_sk, void *b, int64_t b_sr,
                   int64_t b_sc);

/* T x = b, T (n x n) triangular: T's (r, c) at r*a_sr + c*a_sc, read for c >= r (`upper`)
 * or c <= r, its diagonal taken as 1 and not read when `unit`; x at stride x_s, b (stride
 * b_s) copied into it first, or x holding b where b is NULL. Declined, x as it was, where
 * some order of the solve's operations may overflow (b or x within a factor 4n of the
 * type's largest value, or a result not finite). */
int32_t idiom_trsv(int32_t elem, int32_t upper, int32_t unit, int64_t n, const void *a,
                   int64_t a_sr, int64_t a_sc, const void *b, int64_t b_s, void *x,
                   int64_t x_s);

/* What idiom_syrk_finish does after the call, or-ed together. */
#define IDIOM_FINISH_DIVIDE 1   /* each element of the triangle divided by `divisor` */
#define IDIOM_FINISH_MIRROR 2   /* stored again at the element with row and column swapped */
#define IDIOM_FINISH_STRICT 4   /* the triangle leaves the diagonal out: put it back */
#define IDIOM_FINISH_DIAGONAL 8 /* the first `diagonal_rows` of the diagonal set to a value */

/* A copy of C's diagonal from row `from` on (n - from elements at (r, r), r*c_sr + r*c_sc),
 * for idiom_syrk_finish to put back after a call that wrote it (a strict triangle); the rows
 * before `from` are the ones the loop sets itself (IDIOM_FINISH_DIAGONAL). NULL when memory
 * runs out. */
void *idiom_triangle_keep_diagonal(int32_t elem, int64_t n, int64_t from, void *c, int64_t c_sr,
                                   int64_t c_sc);

/* After idiom_syrk or idiom_syr2k returned `status`: where it is IDIOM_DONE, each element
 * of the triangle (as they name it, strict or not) divided by `divisor` in the element type
 * and stored again at its mirror, as a covariance loop finishes `C[i][j] = s / (n - 1);
 * C[j][i] = C[i][j]`; the diagonal put back from `kept_diagonal` (a strict triangle); the
 * first `diagonal_rows` diagonal elements set to `diagonal_value` (a correlation loop's
 * `C[i][i] = 1.0`), as `flags` say. Frees `kept_diagonal` (which may be NULL) in any case
 * and returns `status`. */
int32_t idiom_syrk_finish(int32_t status, int32_t elem, int32_t lower, int64_t n, void *c,
                          int64_t c_sr, int64_t c_sc, int32_t flags, double divisor,
                          void *kept_diagonal, int64_t diagonal_rows, double diagonal_value);

/* Tables of row pointers: `count` entries `stride` bytes apart from `table`, as a loop over
 * the rows reads them. idiom_row_first gives the first entry (NULL when count < 1, reading
 * nothing); idiom_row_step the distance in bytes from each row to the next when every row lies
 * at first + t * step, IDIOM_NO_ROW_STEP otherwise or when count < 1 (0 for a single row). */
#define IDIOM_NO_ROW_STEP INT64_MIN
void *idiom_row_first(const void *table, int64_t count);
int64_t idiom_row_step(const void *table, int64_t stride, int64_t count);
/* A table read along two loops (A[r*nq + q]): `outer_count` x `inner_count` entries, at
 * `table` + r * outer_stride + q * inner_stride. Given `inner_step` (idiom_row_step along the
 * first inner run), the distance in bytes between the first rows of successive outer
 * iterations when every row (r, q) lies at first + r * that + q * inner_step;
 * IDIOM_NO_ROW_STEP otherwise, when either count < 1 or when inner_step is
 * IDIOM_NO_ROW_STEP (0 for a single outer iteration). */
int64_t idiom_row_grid_step(const void *table, int64_t outer_stride, int64_t outer_count,
                            int64_t inner_stride, int64_t inner_count, int64_t inner_step);

/* The rows of a sparse matrix kept as tables of row pointers, to its values and to its
 * columns, and a table of row lengths (HPCCG's ptr_to_vals_in_row, ptr_to_inds_in_row,
 * nnz_in_row; HPCG's matrixValues, mtxIndL, nonzerosInRow), `count` rows from the entries
 * `values`, `columns` and `lengths` point at, each table's entries `*_stride` bytes apart:
 * the number of elements of the blocks the rows make, from the first row's pointers, when
 * in both tables each row starts at or after the end of the row before, less than a page
 * after it (rows packed one after the other, or padded to a common width), at the same
 * element index of both blocks (the kernel reads a row's values and columns at one index),
 * the first starting at an address that is a multiple of its element (`value_bytes`,
 * `column_bytes`); a row of length zero or less holds none, and its pointers are not read.
 * -1 otherwise, or when count < 1 (reading nothing). The lengths are signed integers of
 * `length_bytes` (1, 2, 4 or 8) bytes. */
int64_t idiom_rows_block(const void *values, int64_t values_stride, int64_t value_bytes,
                         const void *columns, int64_t columns_stride, int64_t column_bytes,
                         const void *lengths, int64_t length_stride, int32_t length_bytes,
                         int64_t count);

/* Where each chunk of a scan starts: starts[k] = *start op totals[0] op ... op totals[k-1]
 * for k < count, op + (multiply 0) or * (1, integers only), the values of `kind` (integers
 * wrap); *start then holds the fold of all of them. With `magnitudes` (a floating-point
 * sum; NULL otherwise), the chunks' sums of magnitudes: 1 where their sum and the start's
 * magnitude are not finite (some order of the additions may overflow). Returns 0, or 1 for
 * a kind or product it does not know. */
enum { IDIOM_SCAN_I32 = 0, IDIOM_SCAN_I64 = 1, IDIOM_SCAN_F32 = 2, IDIOM_SCAN_F64 = 3 };
int32_t idiom_scan_starts(int32_t kind, int32_t multiply, const void *totals, void *starts,
                          int64_t count, void *start, const void *magnitudes);

/* Kinds of kernel arguments for idiom_cl_run. */
enum {
    IDIOM_ARG_IN = 0,     /* buffer read by the kernel: ptr = host start, bytes = size */
    IDIOM_ARG_OUT = 1,    /* buffer written by the kernel, copied back after it; its device
                             contents start undefined, so the kernel must write all of it */
    IDIOM_ARG_INOUT = 2,  /* copied in, then copied back */
    IDIOM_ARG_SCALAR = 3, /* by value: ptr points to the value, bytes = its size (1, 2, 4, 8) */
    IDIOM_ARG_LOCAL = 4,  /* __local memory of `bytes` bytes, ptr unused */
    IDIOM_ARG_SCRATCH = 5 /* a __global buffer of `bytes` bytes, zeroed before the kernel,
                             never copied to or from the host, ptr unused: the kernel's own
                             workspace (a sparse product's claims on the rows of y) */
};

/* Flags of a buffer argument. */
#define IDIOM_ARG_RESIDENT 1 /* the kernel takes the buffer and then, as a `long`, the byte
                                offset of `ptr` in it; once idiom_residency_on() was called the
                                runtime may keep the data on the device after the call and
                                pass a larger buffer holding it (0 offset otherwise) */
#define IDIOM_ARG_CONTINUES 2 /* an IN buffer that the launch just before it on this thread
                                 wrote: this launch finishes that one's work (a reduction's
                                 final fold) and IDIOM_DEVICE=auto sends it where that one went
                                 (declining it would waste the work already done) */

#define IDIOM_ARG_HANDOFF 4 /* an OUT buffer that only the next launch on this thread reads, as
                               an IDIOM_ARG_CONTINUES input: it may stay on the device for
                               that launch and never reach the host (a reduction's partial
                               results, which its final fold totals) */

/* Or'ed into an IDIOM_ARG_RESIDENT buffer's flags: the kernel takes its offset in elements of
   2^k bytes (IDIOM_ARG_ELEMENTS(k), k from 0 to 3), not in bytes, and indexes a typed pointer
   to its buffer by it. A start that is not a whole number of such elements into the buffer
   fails the launch: the original code runs. (On the H200 a generated JDS product ran 2% faster
   from a typed buffer plus an element offset than from a byte buffer plus a byte offset.) */
#define IDIOM_ARG_ELEMENTS(k) (((k) + 1) << 8)
#define IDIOM_ARG_ELEMENT_SHIFT(flags) ((((flags) >> 8) & 7) - 1) /* k, or -1: bytes */

typedef struct idiom_arg {
    int32_t kind;
    int32_t flags; /* IDIOM_ARG_RESIDENT (| IDIOM_ARG_ELEMENTS(k)), IDIOM_ARG_CONTINUES,
                      IDIOM_ARG_HANDOFF or 0 */
    void *ptr;
    int64_t bytes;
} idiom_arg;

/* Launch `kernel` from the OpenCL C `source` (a NUL-terminated string) over the NDRange
 * global[0..dims) (dims 1..3), with work-groups local[0..dims) or NULL for the driver's choice.
 * `work` estimates the operations, for the device choice; a negative one, -w, marks a check of
 * w operations whose results only say whether a launch after it may run (a range of indices):
 * IDIOM_DEVICE=auto weighs it as the launch it checks for. Host memory (OUT/INOUT buffers) is
 * written only once the kernel has completed successfully. Built programs are cached in memory
 * per (source text, device) and on disk as binaries. */
int32_t idiom_cl_run(const char *source, const char *kernel, int32_t dims, const int64_t *global,
                     const int64_t *local, int64_t work, int32_t nargs, idiom_arg *args);

/* Or'ed into idiom_cl_run's `dims`: the kernel computes every element whatever its NDRange
   (each of its loops strides by its range's size), so the runtime may launch it with other
   work-groups and fewer work-items than asked, tuned on the device (idiom_tune.h). */
#define IDIOM_CL_ANY_RANGE 0x100

/* Or'ed into idiom_cl_run's `dims`: dimension 0 is a grid whose work-items each stride over
   their share of the work by the global size, so any number of them computes the same. The
   runtime launches at least global[0], and on a GPU as many as fill it (its compute units
   times 2048) where `work` gives each at least IDIOM_CL_FILL_SHARE iterations: a fixed grid
   small enough for a CPU device keeps a large GPU's memory waiting on a few loads in flight.
   IDIOM_CL_FILL_ITEMS=N fills with N work-items on any device (tests). With IDIOM_CL_WIDE
   too, where the grid fills the device (as many items as it takes, not fewer), its
   work-groups are widened to IDIOM_CL_FILL_GROUP work-items, at most what the kernel allows
   on the device: a histogram's integer adds into each group's
   bins in local memory ran at 91% of an H200's copy bandwidth in groups of 1,024 against
   77% in groups of 256. */
#define IDIOM_CL_FILL 0x200
#define IDIOM_CL_WIDE 0x400

/* Or'ed into idiom_cl_run's `dims` with IDIOM_CL_ANY_RANGE: the source also defines
   `<kernel>_covered`, taking the same arguments and computing the same where the NDRange has
   an item for every element (global[d] items at least, the caller's, in each dimension), one
   element an item, without the loop that strides by the range: the runtime launches it
   instead where the shape it launches covers so. (On the H200 a JDS product's rows ran 4%
   faster so: docs/lift.md.) */
#define IDIOM_CL_COVERED_TWIN 0x800
#define IDIOM_CL_FILL_SHARE 16
#define IDIOM_CL_FILL_GROUP 1024

/* The fewest loop iterations worth asking for an OpenCL launch: IDIOM_CL_MIN_WORK (default
 * 32768); no number with IDIOM_DEVICE=off, nor under IDIOM_DEVICE=auto on a machine without a
 * GPU (auto launches on a GPU only, where its cost model says a launch pays). Read once per
 * process. */
int64_t idiom_cl_min_work(void);

/* 1 where a sparse product of long rows may run by several work-items a row (their lanes
 * folding in local memory between barriers, fast on a GPU, slower than one row an item on
 * a CPU device): IDIOM_ROW_LANES=1 or 0, else 1 unless IDIOM_DEVICE=cpu. Read once. */
int32_t idiom_row_lanes(void);

/* The world a function built twice runs (mappers/rewrite/worlds.py): IDIOM_WORLD_UNKNOWN until the
 * first such function asks idiom_world_decide(), then ORIGINAL where no OpenCL launch can
 * happen in this process (the source's code runs) or REWRITTEN (the guarded code runs). */
enum { IDIOM_WORLD_UNKNOWN = 0, IDIOM_WORLD_ORIGINAL = 1, IDIOM_WORLD_REWRITTEN = 2 };

/* Decides idiom_world once and returns 1 for the original world. */
int32_t idiom_world_decide(void);

/* Device residency. A program calls idiom_residency_on() once (the rewriter puts it at the
 * start of main) to promise that it calls idiom_host_access() before touching host memory that
 * an earlier launch may have used; from then on IDIOM_ARG_RESIDENT buffers stay on the device
 * between launches, and results written there are copied back by idiom_host_access() only.
 * IDIOM_RESIDENT=0 turns it off (every launch copies in and back, as without the promise). */
void idiom_residency_on(void);

/* Copies back to the host whatever kernels wrote on a device and forgets every device copy.
 * Costs one atomic read when nothing is on a device. */
void idiom_host_access(void);

/* The same for the device copies overlapping [address, address + bytes) only: what a single
 * load or store needs. The other copies stay on the device. */
void idiom_host_access_at(const void *address, int64_t bytes);

/* The program's static array laid out alone on the whole pages [start, start + bytes)
 * (mappers/rewrite/owned_pages.py): a device copy inside it has its partial first and last
 * pages protected too, as a block of its own from malloc. Called by the unit's constructor;
 * ignored unless both ends fall on this machine's page boundaries. */
void idiom_private_pages(const void *start, int64_t bytes);

/* How many device copies there are (one atomic read). Before a loop of host code whose bytes
 * it bounds, the rewriter computes the ranges for idiom_host_access_at only when there are
 * some: a small function called millions of times pays one call, as with idiom_host_access. */
int32_t idiom_device_copies(void);

#ifdef __cplusplus
}
#endif

#endif /* IDIOM_RUNTIME_H */
