/* GEMM, GEMV, GER, SYRK, SYR2K, TRMM and TRSV through OpenBLAS (the scipy-openblas32 wheel: 32-bit integers, prefixed names).
 *
 * The caller describes each matrix by two element strides, computed at run time from the
 * program's own indexing. BLAS can express a matrix whose one axis has unit stride and whose
 * other stride (the leading dimension) is at least the extent of the unit-stride axis; every
 * such matrix is either column-major as it stands or the transpose of a column-major matrix,
 * so all calls go through CblasColMajor with the transposition flags doing the rest.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "idiom_internal.h"
#include "idiom_watch.h"

/* The wheel renames every symbol; its pkg-config file gives the prefix and the build step
   passes it on. */
#ifndef IDIOM_BLAS_PREFIX
#define IDIOM_BLAS_PREFIX scipy_
#endif
#define IDIOM_CAT2(a, b) a##b
#define IDIOM_CAT(a, b) IDIOM_CAT2(a, b)
#define BLAS(name) IDIOM_CAT(IDIOM_BLAS_PREFIX, name)

#define DEFAULT_BLAS_MIN_WORK 4096

/* What an entry point knows about its call for IDIOM_STATS, taken before the call. */
typedef struct {
    const char *stats; /* the IDIOM_STATS path, or NULL */
    double start;
    long recalled; /* operand bounds remembered so far (idiom_watch.c) */
} call_record;

/* Every entry point starts so: BLAS reads and writes host memory, so device results come back
   first; then the record's start. */
static call_record record_start(void) {
    idiom_host_access();
    call_record record = {idiom__stats_path(), 0.0, idiom__watch_recalls()};
    record.start = record.stats != NULL ? idiom__now() : 0.0;
    return record;
}

/* Opens the call's IDIOM_STATS line in j with its status, time and the bounds it remembered;
   0 (nothing opened) when IDIOM_STATS is not set. The caller adds its fields and emits j. */
static int record_open(const call_record *record, idiom_json *j, const char *entry,
                       int32_t status) {
    if (record->stats == NULL) {
        return 0;
    }
    idiom__json_begin(j, entry, status, idiom__now() - record->start);
    idiom__json_int(j, "remembered", idiom__watch_recalls() - record->recalled);
    return 1;
}

/* A matrix as BLAS sees it: column-major with leading dimension ld, or (transposed) the
   column-major storage of its transpose. */
typedef struct {
    int transposed;
    int64_t ld;
} layout;

/* The layout of a rows x cols matrix whose element (r, c) lies at r*rs + c*cs, or 0 if BLAS
   cannot express it. rows and cols are >= 1. */
static int describe(int64_t rows, int64_t cols, int64_t rs, int64_t cs, layout *out) {
    /* Column-major: unit stride down a column, columns at least `rows` apart. */
    if ((rows == 1 || rs == 1) && (cols == 1 || cs >= rows)) {
        out->transposed = 0;
        out->ld = cols == 1 ? rows : cs;
        return out->ld <= INT32_MAX;
    }
    /* Row-major: unit stride along a row, rows at least `cols` apart. */
    if ((cols == 1 || cs == 1) && (rows == 1 || rs >= cols)) {
        out->transposed = 1;
        out->ld = rows == 1 ? cols : rs;
        return out->ld <= INT32_MAX;
    }
    return 0;
}

static int64_t blas_min_work(void) {
    return idiom__env_int("IDIOM_BLAS_MIN_WORK", DEFAULT_BLAS_MIN_WORK);
}

/* a*b*c, saturated at INT64_MAX (so a huge problem still counts as large). */
static int64_t work_of(int64_t a, int64_t b, int64_t c) {
    int64_t ab = 0;
    int64_t abc = 0;
    if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, &abc)) {
        return INT64_MAX;
    }
    return abc;
}

static const char *elem_name(int32_t elem) {
    return elem == IDIOM_FLOAT ? "float" : "double";
}

/* C <- beta*C over an m x n matrix, for k == 0 where BLAS has nothing to multiply. */
static void scale_matrix(int32_t elem, int64_t m, int64_t n, double beta, void *c, int64_t c_sm,
                         int64_t c_sn) {
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < n; j++) {
            int64_t at = i * c_sm + j * c_sn;
            if (elem == IDIOM_FLOAT) {
                float *p = (float *)c + at;
                *p = beta == 0.0 ? 0.0f : (float)beta * *p;
            } else {
                double *p = (double *)c + at;
                *p = beta == 0.0 ? 0.0 : beta * *p;
            }
        }
    }
}

/* Whether the scale factors are finite. An infinite one declines: BLAS applies alpha
   where it pleases (to the sum, to a factor, to B before a product), and Inf times a zero
   sum is NaN where the loop, scaling each product, gets an infinity, or the reverse. */
static int finite_scales(double alpha, double beta) {
    return isfinite(alpha) && isfinite(beta);
}

static double line_max(int32_t elem, const void *v, int64_t at, int64_t count, int64_t stride,
                       double largest, int finite_only);
static double magnitude_sum(int32_t elem, const void *v, int64_t at, int64_t count,
                            int64_t stride);
static double triangle_max(int32_t elem, int32_t upper, int32_t unit, int64_t m, const void *a,
                           int64_t a_sr, int64_t a_sk, int finite_only);
static double matrix_max(int32_t elem, int64_t rows, int64_t cols, const void *v, int64_t sr,
                         int64_t sc, int finite_only);
static double input_max(int32_t elem, int64_t rows, int64_t cols, const void *v, int64_t sr,
                        int64_t sc, int finite_only);
static double input_triangle_max(int32_t elem, int32_t upper, int32_t unit, int64_t m,
                                 const void *a, int64_t a_sr, int64_t a_sk, int finite_only);
static int far_from_overflow(int32_t elem, double bound);
#define EVERY_ELEMENT 0   /* a scan's answer is INFINITY where an element is not finite */
#define FINITE_ELEMENTS 1 /* ... or no smaller than the largest of the finite ones */

/* Whether no order of a sum of `terms` products of two factors at most `largest_a` and
   `largest_b` in magnitude, scaled by alpha, plus beta times a value at most `largest_c`,
   can overflow: BLAS adds in blocks and with fused multiply-adds where the loop adds in its
   own order, and where one order overflows and the other does not they disagree (Inf
   against a number). A product is bounded before and after alpha scales it (alpha may
   multiply a factor or the sum); C counts only where beta reads it. The largest values are
   those of the finite elements: an infinity or a NaN among the inputs of a dense product
   makes the same terms infinite or NaN in every order (BLAS forms no term the loop does
   not), so the sums holding them end Inf or NaN alike once the finite terms cannot
   overflow. (A triangular product differs: BLAS multiplies the zeros outside the
   triangle too, and 0 * Inf is NaN; TRMM counts every element.) */
static int products_far_from_overflow(int32_t elem, double alpha, double largest_a,
                                      double largest_b, int64_t terms, double beta,
                                      double largest_c) {
    double scaled = fmax(1.0, fabs(alpha)) * largest_a * largest_b * (double)terms;
    return far_from_overflow(elem, scaled + (beta != 0.0 ? fabs(beta) * largest_c : 0.0));
}


static int32_t gemm_at_least(int32_t elem, int64_t m, int64_t n, int64_t k, double alpha,
                             const void *a, int64_t a_sm, int64_t a_sk, const void *b,
                             int64_t b_sk, int64_t b_sn, double beta, void *c, int64_t c_sm,
                             int64_t c_sn, int64_t min_work, int bounded);
#define BOUNDED 1 /* gemm_at_least checks that no order of the sums may overflow */

static int32_t gemm(int32_t elem, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                    int64_t a_sm, int64_t a_sk, const void *b, int64_t b_sk, int64_t b_sn,
                    double beta, void *c, int64_t c_sm, int64_t c_sn) {
    return gemm_at_least(elem, m, n, k, alpha, a, a_sm, a_sk, b, b_sk, b_sn, beta, c, c_sm,
                         c_sn, blas_min_work(), BOUNDED);
}

/* gemm, declining a product of less than `min_work` multiply-adds, and, `bounded`, one some
   order of whose sums may overflow */
static int32_t gemm_at_least(int32_t elem, int64_t m, int64_t n, int64_t k, double alpha,
                             const void *a, int64_t a_sm, int64_t a_sk, const void *b,
                             int64_t b_sk, int64_t b_sn, double beta, void *c, int64_t c_sm,
                             int64_t c_sn, int64_t min_work, int bounded) {
    if (!finite_scales(alpha, beta)) {
        return IDIOM_DECLINED;
    }
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || m < 0 || n < 0 || k < 0) {
        return IDIOM_DECLINED;
    }
    if (m == 0 || n == 0) {
        return IDIOM_DONE;
    }
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) {
        return IDIOM_DECLINED;
    }
    if (work_of(m, n, k) < min_work) {
        return IDIOM_DECLINED;
    }
    layout lc;
    if (!describe(m, n, c_sm, c_sn, &lc)) {
        return IDIOM_DECLINED;
    }
    if (k == 0) {
        scale_matrix(elem, m, n, beta, c, c_sm, c_sn);
        return IDIOM_DONE;
    }
    layout la;
    layout lb;
    if (!describe(m, k, a_sm, a_sk, &la) || !describe(k, n, b_sk, b_sn, &lb)) {
        return IDIOM_DECLINED;
    }
    /* every partial sum of alpha A B + beta C, in any order, is within this: O(mk + kn + mn)
       beside the product's O(mnk) */
    if (bounded) {
        double largest_a = input_max(elem, m, k, a, a_sm, a_sk, FINITE_ELEMENTS);
        double largest_b = input_max(elem, k, n, b, b_sk, b_sn, FINITE_ELEMENTS);
        double largest_c =
            beta != 0.0 ? matrix_max(elem, m, n, c, c_sm, c_sn, FINITE_ELEMENTS) : 0.0;
        if (!products_far_from_overflow(elem, alpha, largest_a, largest_b, k, beta, largest_c)) {
            return IDIOM_DECLINED;
        }
    }

    /* With C column-major, C = op(A) op(B) directly. With C row-major, compute
       C^T = B^T A^T instead: the column-major storage of C^T is C's own, and transposing A
       and B flips their flags. */
    const void *first = a;
    const void *second = b;
    layout l1 = la;
    layout l2 = lb;
    int64_t rows = m;
    int64_t cols = n;
    if (lc.transposed) {
        first = b;
        second = a;
        l1.transposed = !lb.transposed;
        l1.ld = lb.ld;
        l2.transposed = !la.transposed;
        l2.ld = la.ld;
        rows = n;
        cols = m;
    }
    enum CBLAS_TRANSPOSE t1 = l1.transposed ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE t2 = l2.transposed ? CblasTrans : CblasNoTrans;
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_sgemm)(CblasColMajor, t1, t2, (blasint)rows, (blasint)cols, (blasint)k,
                          (float)alpha, first, (blasint)l1.ld, second, (blasint)l2.ld,
                          (float)beta, c, (blasint)lc.ld);
    } else {
        BLAS(cblas_dgemm)(CblasColMajor, t1, t2, (blasint)rows, (blasint)cols, (blasint)k, alpha,
                          first, (blasint)l1.ld, second, (blasint)l2.ld, beta, c,
                          (blasint)lc.ld);
    }
    return IDIOM_DONE;
}

int32_t idiom_gemm(int32_t elem, int64_t m, int64_t n, int64_t k, double alpha, const void *a,
                   int64_t a_sm, int64_t a_sk, const void *b, int64_t b_sk, int64_t b_sn,
                   double beta, void *c, int64_t c_sm, int64_t c_sn) {
    call_record record = record_start();
    int32_t status =
        gemm(elem, m, n, k, alpha, a, a_sm, a_sk, b, b_sk, b_sn, beta, c, c_sm, c_sn);
    idiom_json j;
    if (record_open(&record, &j, "gemm", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "k", k);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("gemm %s m=%lld n=%lld k=%lld strides A(%lld,%lld) B(%lld,%lld) C(%lld,%lld) "
                 "on blas: %s",
                 elem_name(elem), (long long)m, (long long)n, (long long)k, (long long)a_sm,
                 (long long)a_sk, (long long)b_sk, (long long)b_sn, (long long)c_sm,
                 (long long)c_sn, idiom__status_name(status));
    return status;
}

/* A vector's BLAS increment: positive, or anything when it has at most one element. */
static int increment(int64_t len, int64_t stride, blasint *inc) {
    if (len <= 1) {
        *inc = 1;
        return 1;
    }
    if (stride <= 0 || stride > INT32_MAX) {
        return 0;
    }
    *inc = (blasint)stride;
    return 1;
}

/* x <- b (n elements, strides b_s and x_s). */
static void copy_vector(int32_t elem, int64_t n, const void *b, int64_t b_s, void *x,
                        int64_t x_s) {
    if (b_s == 1 && x_s == 1) {
        memmove(x, b, (size_t)n * (elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double)));
        return;
    }
    for (int64_t t = 0; t < n; t++) {
        if (elem == IDIOM_FLOAT) {
            ((float *)x)[t * x_s] = ((const float *)b)[t * b_s];
        } else {
            ((double *)x)[t * x_s] = ((const double *)b)[t * b_s];
        }
    }
}

/* Copies `count` rows of n elements from the packed block `from` (row-major, n apart) to
   rows `to_s` apart, their elements `elem_s` apart. */
static void copy_rows(int32_t elem, int64_t count, int64_t n, const void *from, void *to,
                      int64_t to_s, int64_t elem_s) {
    size_t size = elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double);
    for (int64_t i = 0; i < count; i++) {
        copy_vector(elem, n, (const char *)from + (size_t)(i * n) * size, 1,
                    (char *)to + (size_t)(i * to_s) * size, elem_s);
    }
}

static int32_t gemm_rows(int32_t elem, int64_t nb0, int64_t nb1, void *x, int64_t x_s0,
                         int64_t x_s1, int64_t x_sk, int64_t k, const void *w, int64_t w_sk,
                         int64_t w_sn, int64_t n, void *sums, int64_t sums_s) {
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || nb0 < 0 || nb1 < 0 || k < 0 || n < 0) {
        return IDIOM_DECLINED;
    }
    if (nb0 == 0 || nb1 == 0 || n == 0) {
        return IDIOM_DONE;
    }
    /* the rows do not overlap: each product reads its own row only */
    int64_t row = k > n ? k : n;
    int flat = nb0 == 1 || x_s0 == nb1 * x_s1;
    if (x_sk != 1 || (nb1 > 1 && x_s1 < row) || (nb0 > 1 && x_s0 < nb1 * x_s1)) {
        return IDIOM_DECLINED;
    }
    if (work_of(nb0 * nb1, n, k) < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    int64_t block = flat ? nb0 * nb1 : nb1;
    int64_t blocks = flat ? 1 : nb0;
    size_t size = elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double);
    /* every sum of every product, in any order, within the rows' and W's largest values */
    double largest_x = 0.0;
    for (int64_t b = 0; b < blocks; b++) {
        const char *rows = (const char *)x + (size_t)(b * x_s0) * size;
        largest_x = fmax(largest_x, matrix_max(elem, block, k, rows, x_s1, x_sk, FINITE_ELEMENTS));
    }
    double largest_w = input_max(elem, k, n, w, w_sk, w_sn, FINITE_ELEMENTS);
    if (!products_far_from_overflow(elem, 1.0, largest_x, largest_w, k, 0.0, 0.0)) {
        return IDIOM_DECLINED;
    }
    void *scratch = malloc((size_t)(block * n) * size);
    if (scratch == NULL) {
        return IDIOM_DECLINED;
    }
    for (int64_t b = 0; b < blocks; b++) {
        char *rows = (char *)x + (size_t)(b * x_s0) * size;
        int32_t status = gemm_at_least(elem, block, n, k, 1.0, rows, x_s1, x_sk, w, w_sk, w_sn,
                                       0.0, scratch, n, 1, 0, !BOUNDED);
        if (status != IDIOM_DONE) { /* the same shape each block: only the first declines */
            free(scratch);
            return IDIOM_DECLINED;
        }
        copy_rows(elem, block, n, scratch, rows, x_s1, 1);
    }
    copy_rows(elem, 1, n, (char *)scratch + (size_t)((block - 1) * n) * size, sums, 0, sums_s);
    free(scratch);
    return IDIOM_DONE;
}

int32_t idiom_gemm_rows(int32_t elem, int64_t nb0, int64_t nb1, void *x, int64_t x_s0,
                        int64_t x_s1, int64_t x_sk, int64_t k, const void *w, int64_t w_sk,
                        int64_t w_sn, int64_t n, void *sums, int64_t sums_s) {
    call_record record = record_start();
    int32_t status =
        gemm_rows(elem, nb0, nb1, x, x_s0, x_s1, x_sk, k, w, w_sk, w_sn, n, sums, sums_s);
    idiom_json j;
    if (record_open(&record, &j, "gemm_rows", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", nb0 * nb1);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "k", k);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("gemm_rows %s rows=%lldx%lld n=%lld k=%lld strides rows(%lld,%lld,%lld) "
                 "W(%lld,%lld) on blas: %s",
                 elem_name(elem), (long long)nb0, (long long)nb1, (long long)n, (long long)k,
                 (long long)x_s0, (long long)x_s1, (long long)x_sk, (long long)w_sk,
                 (long long)w_sn, idiom__status_name(status));
    return status;
}

/* Whether a GEMV can be made: IDIOM_DONE when there is nothing to do (m == 0),
   IDIOM_DECLINED when BLAS cannot express it or it is too small, GEMV_READY otherwise,
   with the increments and A's layout. */
#define GEMV_READY 100
static int32_t gemv_check(int32_t elem, int64_t m, int64_t n, int64_t a_sm, int64_t a_sn,
                          int64_t x_s, int64_t y_s, blasint *incx, blasint *incy,
                          layout *la) {
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || m < 0 || n < 0) {
        return IDIOM_DECLINED;
    }
    if (m == 0) {
        return IDIOM_DONE;
    }
    if (m > INT32_MAX || n > INT32_MAX || work_of(m, n, 1) < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    if (!increment(m, y_s, incy) || (n > 0 && !increment(n, x_s, incx)) ||
        (n > 0 && !describe(m, n, a_sm, a_sn, la))) {
        return IDIOM_DECLINED;
    }
    return GEMV_READY;
}

/* A bound on every partial sum of y = alpha A x + beta y in any order, from the finite
   elements (see products_far_from_overflow). It scans A, as much memory as the product
   reads: BLAS's order differs from the loop's, and a matrix of huge entries that cancel
   along a row overflows in one order and not in the other; nothing cheaper tells. */
static double gemv_bound_from(int32_t elem, int64_t m, int64_t n, double alpha,
                              double largest_a, const void *x, int64_t x_s, double beta,
                              const void *y, int64_t y_s) {
    int64_t terms = m > 0 && n > 0 ? n : 0;
    double largest_x = matrix_max(elem, terms, 1, x, x_s, 0, FINITE_ELEMENTS);
    double largest_y =
        beta != 0.0 && m > 0 ? matrix_max(elem, m, 1, y, y_s, 0, FINITE_ELEMENTS) : 0.0;
    return fmax(1.0, fabs(alpha)) * (terms > 0 ? largest_a : 0.0) * largest_x * (double)terms +
           fabs(beta) * largest_y;
}

/* A's part of gemv_bound: no smaller than its largest finite magnitude (0 when empty). */
static double gemv_matrix_bound(int32_t elem, int64_t m, int64_t n, const void *a, int64_t a_sm,
                                int64_t a_sn) {
    return m > 0 && n > 0 ? input_max(elem, m, n, a, a_sm, a_sn, FINITE_ELEMENTS) : 0.0;
}

static double gemv_bound(int32_t elem, int64_t m, int64_t n, double alpha, const void *a,
                         int64_t a_sm, int64_t a_sn, const void *x, int64_t x_s, double beta,
                         const void *y, int64_t y_s) {
    double largest_a = gemv_matrix_bound(elem, m, n, a, a_sm, a_sn);
    return gemv_bound_from(elem, m, n, alpha, largest_a, x, x_s, beta, y, y_s);
}

static int32_t gemv(int32_t elem, int64_t m, int64_t n, double alpha, const void *a,
                    int64_t a_sm, int64_t a_sn, const void *x, int64_t x_s, double beta, void *y,
                    int64_t y_s) {
    blasint incx = 1;
    blasint incy = 1;
    layout la = {0, 1};
    int32_t ready = gemv_check(elem, m, n, a_sm, a_sn, x_s, y_s, &incx, &incy, &la);
    if (ready != GEMV_READY || !finite_scales(alpha, beta)) {
        return ready == GEMV_READY ? IDIOM_DECLINED : ready;
    }
    /* BLAS leaves y alone when n == 0 (a quick return), and OpenBLAS releases differ on whether
       beta == 0 clears y or scales it (0 * NaN): do the beta part here in those cases and let
       BLAS only accumulate. */
    if (n == 0 || beta == 0.0) {
        scale_matrix(elem, m, 1, beta, y, incy, 0);
        if (n == 0) {
            return IDIOM_DONE;
        }
        beta = 1.0;
    }
    /* Column-major A is m x n as it stands; row-major A is the storage of an n x m
       column-major matrix, so y = (A^T)^T x. */
    enum CBLAS_TRANSPOSE t = la.transposed ? CblasTrans : CblasNoTrans;
    blasint rows = (blasint)(la.transposed ? n : m);
    blasint cols = (blasint)(la.transposed ? m : n);
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_sgemv)(CblasColMajor, t, rows, cols, (float)alpha, a, (blasint)la.ld, x, incx,
                          (float)beta, y, incy);
    } else {
        BLAS(cblas_dgemv)(CblasColMajor, t, rows, cols, alpha, a, (blasint)la.ld, x, incx, beta,
                          y, incy);
    }
    return IDIOM_DONE;
}

/* gemv, declined where some order of its sums may overflow */
static int32_t gemv_within_bounds(int32_t elem, int64_t m, int64_t n, double alpha,
                                  const void *a, int64_t a_sm, int64_t a_sn, const void *x,
                                  int64_t x_s, double beta, void *y, int64_t y_s) {
    blasint incx = 1;
    blasint incy = 1;
    layout la = {0, 1};
    int32_t ready = gemv_check(elem, m, n, a_sm, a_sn, x_s, y_s, &incx, &incy, &la);
    if (ready != GEMV_READY) {
        return ready;
    }
    if (!far_from_overflow(elem, gemv_bound(elem, m, n, alpha, a, a_sm, a_sn, x, x_s, beta, y,
                                            y_s))) {
        return IDIOM_DECLINED;
    }
    return gemv(elem, m, n, alpha, a, a_sm, a_sn, x, x_s, beta, y, y_s);
}

int32_t idiom_gemv(int32_t elem, int64_t m, int64_t n, double alpha, const void *a, int64_t a_sm,
                   int64_t a_sn, const void *x, int64_t x_s, double beta, void *y, int64_t y_s) {
    call_record record = record_start();
    int32_t status = gemv_within_bounds(elem, m, n, alpha, a, a_sm, a_sn, x, x_s, beta, y, y_s);
    idiom_json j;
    if (record_open(&record, &j, "gemv", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m);
        idiom__json_int(&j, "n", n);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("gemv %s m=%lld n=%lld strides A(%lld,%lld) x %lld y %lld on blas: %s",
                 elem_name(elem), (long long)m, (long long)n, (long long)a_sm, (long long)a_sn,
                 (long long)x_s, (long long)y_s, idiom__status_name(status));
    return status;
}

/* Whether both products of a GEMV pair are far from overflow (gemv_bound), A read once
   where both products read one matrix (a BiCG step's A^T r and A p: the same elements,
   one product's rows the other's columns). */
static int pair_far_from_overflow(int32_t elem, int64_t m1, int64_t n1, double alpha1,
                                  const void *a1, int64_t a1_sm, int64_t a1_sn, const void *x1,
                                  int64_t x1_s, double beta1, const void *y1, int64_t y1_s,
                                  int64_t m2, int64_t n2, double alpha2, const void *a2,
                                  int64_t a2_sm, int64_t a2_sn, const void *x2, int64_t x2_s,
                                  double beta2, const void *y2, int64_t y2_s) {
    int same = a1 == a2 && m1 > 0 && n1 > 0 &&
               ((m1 == m2 && n1 == n2 && a1_sm == a2_sm && a1_sn == a2_sn) ||
                (m1 == n2 && n1 == m2 && a1_sm == a2_sn && a1_sn == a2_sm));
    double largest_1 = gemv_matrix_bound(elem, m1, n1, a1, a1_sm, a1_sn);
    double largest_2 = same ? largest_1 : gemv_matrix_bound(elem, m2, n2, a2, a2_sm, a2_sn);
    return far_from_overflow(elem, gemv_bound_from(elem, m1, n1, alpha1, largest_1, x1, x1_s,
                                                   beta1, y1, y1_s)) &&
           far_from_overflow(elem, gemv_bound_from(elem, m2, n2, alpha2, largest_2, x2, x2_s,
                                                   beta2, y2, y2_s));
}

int32_t idiom_gemv2(int32_t elem, int64_t m1, int64_t n1, double alpha1, const void *a1,
                    int64_t a1_sm, int64_t a1_sn, const void *x1, int64_t x1_s, double beta1,
                    void *y1, int64_t y1_s, int64_t m2, int64_t n2, double alpha2,
                    const void *a2, int64_t a2_sm, int64_t a2_sn, const void *x2, int64_t x2_s,
                    double beta2, void *y2, int64_t y2_s) {
    call_record record = record_start();
    blasint incx = 1;
    blasint incy = 1;
    layout la = {0, 1};
    /* both or neither: a loop that made one of the products cannot be run again */
    int32_t first = gemv_check(elem, m1, n1, a1_sm, a1_sn, x1_s, y1_s, &incx, &incy, &la);
    int32_t second = gemv_check(elem, m2, n2, a2_sm, a2_sn, x2_s, y2_s, &incx, &incy, &la);
    int32_t status = IDIOM_DECLINED;
    int finite = finite_scales(alpha1, beta1) && finite_scales(alpha2, beta2);
    if (first != IDIOM_DECLINED && second != IDIOM_DECLINED && finite &&
        pair_far_from_overflow(elem, m1, n1, alpha1, a1, a1_sm, a1_sn, x1, x1_s, beta1, y1, y1_s,
                               m2, n2, alpha2, a2, a2_sm, a2_sn, x2, x2_s, beta2, y2, y2_s)) {
        gemv(elem, m1, n1, alpha1, a1, a1_sm, a1_sn, x1, x1_s, beta1, y1, y1_s);
        gemv(elem, m2, n2, alpha2, a2, a2_sm, a2_sn, x2, x2_s, beta2, y2, y2_s);
        status = IDIOM_DONE;
    }
    idiom_json j;
    if (record_open(&record, &j, "gemv2", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m1);
        idiom__json_int(&j, "n", n1);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("gemv2 %s m=%lld n=%lld and m=%lld n=%lld on blas: %s", elem_name(elem),
                 (long long)m1, (long long)n1, (long long)m2, (long long)n2,
                 idiom__status_name(status));
    return status;
}

/* y[i] = alpha * t[i] for the m elements of t and y, in the element type (the loop's
   `alpha * tmp[i]`). */
static void scaled_copy(int32_t elem, int64_t m, double alpha, const void *t, int64_t t_s,
                        void *y, int64_t y_s) {
    for (int64_t i = 0; i < m; i++) {
        if (elem == IDIOM_FLOAT) {
            ((float *)y)[i * y_s] = (float)alpha * ((const float *)t)[i * t_s];
        } else {
            ((double *)y)[i * y_s] = alpha * ((const double *)t)[i * t_s];
        }
    }
}

static int32_t gemv_sum(int32_t elem, int64_t m1, int64_t n1, const void *a1, int64_t a1_sm,
                        int64_t a1_sn, const void *x1, int64_t x1_s, void *y1, int64_t y1_s,
                        int64_t m2, int64_t n2, const void *a2, int64_t a2_sm, int64_t a2_sn,
                        const void *x2, int64_t x2_s, void *y2, int64_t y2_s,
                        int32_t keeps_first, double alpha, double beta) {
    blasint incx = 1;
    blasint incy = 1;
    layout la = {0, 1};
    int32_t first = gemv_check(elem, m1, n1, a1_sm, a1_sn, x1_s, y1_s, &incx, &incy, &la);
    int32_t second = gemv_check(elem, m2, n2, a2_sm, a2_sn, x2_s, y2_s, &incx, &incy, &la);
    /* BLAS reads nothing under a zero scale, where the loop computes 0 * NaN */
    if (first == IDIOM_DECLINED || second == IDIOM_DECLINED || m1 != m2 ||
        !finite_scales(alpha, beta) || alpha == 0.0 || beta == 0.0) {
        return IDIOM_DECLINED;
    }
    if (m1 == 0) {
        return IDIOM_DONE;
    }
    /* y2 = alpha * (A1 x1), kept in y1 first where the loop keeps it; then y2 += beta *
       (A2 x2): each element rounded as alpha * t1 + beta * t2 is */
    /* each sum within its bound, and the combination within alpha and beta of them */
    double first_sum = gemv_bound(elem, m1, n1, 1.0, a1, a1_sm, a1_sn, x1, x1_s, 0.0, y1, y1_s);
    double second_sum = gemv_bound(elem, m2, n2, 1.0, a2, a2_sm, a2_sn, x2, x2_s, 0.0, y2, y2_s);
    double combined = fmax(1.0, fabs(alpha)) * first_sum + fmax(1.0, fabs(beta)) * second_sum;
    if (!far_from_overflow(elem, combined)) {
        return IDIOM_DECLINED;
    }
    if (keeps_first) {
        gemv(elem, m1, n1, 1.0, a1, a1_sm, a1_sn, x1, x1_s, 0.0, y1, y1_s);
        scaled_copy(elem, m1, alpha, y1, y1_s, y2, y2_s);
    } else {
        gemv(elem, m1, n1, alpha, a1, a1_sm, a1_sn, x1, x1_s, 0.0, y2, y2_s);
    }
    gemv(elem, m2, n2, beta, a2, a2_sm, a2_sn, x2, x2_s, 1.0, y2, y2_s);
    return IDIOM_DONE;
}

int32_t idiom_gemv_sum(int32_t elem, int64_t m1, int64_t n1, double alpha1, const void *a1,
                       int64_t a1_sm, int64_t a1_sn, const void *x1, int64_t x1_s, double beta1,
                       void *y1, int64_t y1_s, int64_t m2, int64_t n2, double alpha2,
                       const void *a2, int64_t a2_sm, int64_t a2_sn, const void *x2,
                       int64_t x2_s, double beta2, void *y2, int64_t y2_s, int32_t keeps_first,
                       double alpha, double beta) {
    call_record record = record_start();
    int32_t status = IDIOM_DECLINED;
    /* the sums start from zero, unscaled (mappers/targets/blas.py passes them so) */
    if (alpha1 == 1.0 && beta1 == 0.0 && alpha2 == 1.0 && beta2 == 0.0) {
        status = gemv_sum(elem, m1, n1, a1, a1_sm, a1_sn, x1, x1_s, y1, y1_s, m2, n2, a2, a2_sm,
                          a2_sn, x2, x2_s, y2, y2_s, keeps_first, alpha, beta);
    }
    idiom_json j;
    if (record_open(&record, &j, "gemv_sum", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m1);
        idiom__json_int(&j, "n", n1);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("gemv_sum %s m=%lld n=%lld and n=%lld, %s on blas: %s", elem_name(elem),
                 (long long)m1, (long long)n1, (long long)n2,
                 keeps_first ? "keeping the first" : "combined only",
                 idiom__status_name(status));
    return status;
}

/* The symmetric product from A's lower triangle (in A's own row and column terms, k < i
   for A[i][k]) or its upper one (`upper`, k > i). Row-major storage is the column-major
   storage of the transpose: there A's lower triangle is the upper one, and
   C = alpha A B + beta C is C^T = alpha B^T A + beta C^T, A on the right. */
static int32_t symm(int32_t elem, int32_t upper, int64_t m, int64_t n, double alpha, const void *a,
                    int64_t a_sr, int64_t a_sc, const void *b, int64_t b_sr, int64_t b_sc,
                    double beta, void *c, int64_t c_sr, int64_t c_sc) {
    /* BLAS reads nothing under a zero scale, where the loop computes 0 * NaN */
    if (!finite_scales(alpha, beta) || alpha == 0.0 || beta == 0.0) {
        return IDIOM_DECLINED;
    }
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || m < 0 || n < 0) {
        return IDIOM_DECLINED;
    }
    if (m == 0 || n == 0) {
        return IDIOM_DONE;
    }
    if (m > INT32_MAX || n > INT32_MAX || work_of(m, m, n) < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    layout la;
    layout lb;
    layout lc;
    if (!describe(m, m, a_sr, a_sc, &la) || !describe(m, n, b_sr, b_sc, &lb) ||
        !describe(m, n, c_sr, c_sc, &lc) || lb.transposed != lc.transposed) {
        return IDIOM_DECLINED;
    }
    /* A's one triangle is all that is read, of it and of its mirror */
    double largest_a = input_triangle_max(elem, upper, 0, m, a, a_sr, a_sc, FINITE_ELEMENTS);
    double largest_b = input_max(elem, m, n, b, b_sr, b_sc, FINITE_ELEMENTS);
    double largest_c = matrix_max(elem, m, n, c, c_sr, c_sc, FINITE_ELEMENTS);
    if (!products_far_from_overflow(elem, alpha, largest_a, largest_b, m, beta, largest_c)) {
        return IDIOM_DECLINED;
    }
    enum CBLAS_UPLO uplo = (upper != 0) != (la.transposed != 0) ? CblasUpper : CblasLower;
    enum CBLAS_SIDE side = lc.transposed ? CblasRight : CblasLeft;
    blasint rows = (blasint)(lc.transposed ? n : m);
    blasint cols = (blasint)(lc.transposed ? m : n);
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_ssymm)(CblasColMajor, side, uplo, rows, cols, (float)alpha, a,
                          (blasint)la.ld, b, (blasint)lb.ld, (float)beta, c, (blasint)lc.ld);
    } else {
        BLAS(cblas_dsymm)(CblasColMajor, side, uplo, rows, cols, alpha, a, (blasint)la.ld, b,
                          (blasint)lb.ld, beta, c, (blasint)lc.ld);
    }
    return IDIOM_DONE;
}

int32_t idiom_symm(int32_t elem, int32_t upper, int64_t m, int64_t n, double alpha,
                   const void *a, int64_t a_sr, int64_t a_sc, const void *b, int64_t b_sr,
                   int64_t b_sc, double beta, void *c, int64_t c_sr, int64_t c_sc) {
    call_record record = record_start();
    int32_t status =
        symm(elem, upper, m, n, alpha, a, a_sr, a_sc, b, b_sr, b_sc, beta, c, c_sr, c_sc);
    idiom_json j;
    if (record_open(&record, &j, "symm", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "upper", upper);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("symm %s %s m=%lld n=%lld strides A(%lld,%lld) B(%lld,%lld) C(%lld,%lld) on blas: %s",
                 elem_name(elem), upper ? "upper" : "lower", (long long)m, (long long)n,
                 (long long)a_sr, (long long)a_sc,
                 (long long)b_sr, (long long)b_sc, (long long)c_sr, (long long)c_sc,
                 idiom__status_name(status));
    return status;
}

/* The symmetric rank-k update of one triangle. Declines what BLAS cannot express: A with no
   unit stride, C with no unit stride or a leading dimension below n, negative strides. */
static int32_t syrk(int32_t elem, int32_t lower, int64_t n, int64_t k, double alpha, const void *a,
                    int64_t a_sn, int64_t a_sk, double beta, void *c, int64_t c_sr, int64_t c_sc) {
    if (!finite_scales(alpha, beta)) {
        return IDIOM_DECLINED;
    }
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || n < 0 || k < 0) {
        return IDIOM_DECLINED;
    }
    if (n == 0) {
        return IDIOM_DONE;
    }
    if (n > INT32_MAX || k > INT32_MAX || work_of(n, n + 1, k) / 2 < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    /* C as BLAS sees it: column-major as it stands (its triangle by (row, column)), or
       row-major, the storage of the column-major transpose, whose triangle is the other. */
    layout lc;
    if (n > 1 && (c_sr <= 0 || c_sc <= 0)) {
        return IDIOM_DECLINED;
    }
    if (!describe(n, n, c_sr, c_sc, &lc)) {
        return IDIOM_DECLINED;
    }
    enum CBLAS_UPLO uplo = (lower != 0) != (lc.transposed != 0) ? CblasLower : CblasUpper;
    if (k == 0) {
        return IDIOM_DECLINED; /* only the triangle may be scaled: leave it to the loop */
    }
    /* A is n x k: element (r, t) at r*a_sn + t*a_sk. Column-major A gives C = A A^T; the
       storage of a column-major k x n matrix (A transposed) gives C = X^T X with X = A^T. */
    layout la;
    if ((n > 1 && a_sn <= 0) || (k > 1 && a_sk <= 0) || !describe(n, k, a_sn, a_sk, &la)) {
        return IDIOM_DECLINED;
    }
    /* C's triangle (the loop's own terms: lower is column <= row) and all of A */
    double largest_a = input_max(elem, n, k, a, a_sn, a_sk, FINITE_ELEMENTS);
    double largest_c =
        beta != 0.0 ? triangle_max(elem, !lower, 0, n, c, c_sr, c_sc, FINITE_ELEMENTS) : 0.0;
    if (!products_far_from_overflow(elem, alpha, largest_a, largest_a, k, beta, largest_c)) {
        return IDIOM_DECLINED;
    }
    enum CBLAS_TRANSPOSE trans = la.transposed ? CblasTrans : CblasNoTrans;
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_ssyrk)(CblasColMajor, uplo, trans, (blasint)n, (blasint)k, (float)alpha, a,
                          (blasint)la.ld, (float)beta, c, (blasint)lc.ld);
    } else {
        BLAS(cblas_dsyrk)(CblasColMajor, uplo, trans, (blasint)n, (blasint)k, alpha, a,
                          (blasint)la.ld, beta, c, (blasint)lc.ld);
    }
    return IDIOM_DONE;
}

int32_t idiom_syrk(int32_t elem, int32_t lower, int64_t n, int64_t k, double alpha, const void *a,
                   int64_t a_sn, int64_t a_sk, double beta, void *c, int64_t c_sr, int64_t c_sc) {
    call_record record = record_start();
    int32_t status = syrk(elem, lower, n, k, alpha, a, a_sn, a_sk, beta, c, c_sr, c_sc);
    idiom_json j;
    if (record_open(&record, &j, "syrk", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "k", k);
        idiom__json_int(&j, "lower", lower);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("syrk %s %s n=%lld k=%lld strides A(%lld,%lld) C(%lld,%lld) on blas: %s",
                 elem_name(elem), lower ? "lower" : "upper", (long long)n, (long long)k,
                 (long long)a_sn, (long long)a_sk, (long long)c_sr, (long long)c_sc,
                 idiom__status_name(status));
    return status;
}

/* The symmetric rank-2k update of one triangle: as syrk, with B beside A; BLAS takes one
   transposition for both, so they must be laid out alike. */
static int32_t syr2k(int32_t elem, int32_t lower, int64_t n, int64_t k, double alpha,
                     const void *a, int64_t a_sn, int64_t a_sk, const void *b, int64_t b_sn,
                     int64_t b_sk, double beta, void *c, int64_t c_sr, int64_t c_sc) {
    if (!finite_scales(alpha, beta)) {
        return IDIOM_DECLINED;
    }
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || n < 0 || k < 0) {
        return IDIOM_DECLINED;
    }
    if (n == 0) {
        return IDIOM_DONE;
    }
    if (n > INT32_MAX || k > INT32_MAX || k == 0 || work_of(n, n + 1, k) < blas_min_work()) {
        return IDIOM_DECLINED; /* k == 0: only the triangle may be scaled, by the loop */
    }
    layout lc;
    layout la;
    layout lb;
    if (n > 1 && (c_sr <= 0 || c_sc <= 0 || a_sn <= 0 || b_sn <= 0)) {
        return IDIOM_DECLINED;
    }
    if (k > 1 && (a_sk <= 0 || b_sk <= 0)) {
        return IDIOM_DECLINED;
    }
    if (!describe(n, n, c_sr, c_sc, &lc) || !describe(n, k, a_sn, a_sk, &la) ||
        !describe(n, k, b_sn, b_sk, &lb) || la.transposed != lb.transposed) {
        return IDIOM_DECLINED;
    }
    /* two products a term: 2k of them */
    double largest_a = input_max(elem, n, k, a, a_sn, a_sk, FINITE_ELEMENTS);
    double largest_b = input_max(elem, n, k, b, b_sn, b_sk, FINITE_ELEMENTS);
    double largest_c =
        beta != 0.0 ? triangle_max(elem, !lower, 0, n, c, c_sr, c_sc, FINITE_ELEMENTS) : 0.0;
    if (!products_far_from_overflow(elem, alpha, largest_a, largest_b, 2 * k, beta, largest_c)) {
        return IDIOM_DECLINED;
    }
    enum CBLAS_UPLO uplo = (lower != 0) != (lc.transposed != 0) ? CblasLower : CblasUpper;
    enum CBLAS_TRANSPOSE trans = la.transposed ? CblasTrans : CblasNoTrans;
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_ssyr2k)(CblasColMajor, uplo, trans, (blasint)n, (blasint)k, (float)alpha, a,
                           (blasint)la.ld, b, (blasint)lb.ld, (float)beta, c, (blasint)lc.ld);
    } else {
        BLAS(cblas_dsyr2k)(CblasColMajor, uplo, trans, (blasint)n, (blasint)k, alpha, a,
                           (blasint)la.ld, b, (blasint)lb.ld, beta, c, (blasint)lc.ld);
    }
    return IDIOM_DONE;
}

int32_t idiom_syr2k(int32_t elem, int32_t lower, int64_t n, int64_t k, double alpha,
                    const void *a, int64_t a_sn, int64_t a_sk, const void *b, int64_t b_sn,
                    int64_t b_sk, double beta, void *c, int64_t c_sr, int64_t c_sc) {
    call_record record = record_start();
    int32_t status =
        syr2k(elem, lower, n, k, alpha, a, a_sn, a_sk, b, b_sn, b_sk, beta, c, c_sr, c_sc);
    idiom_json j;
    if (record_open(&record, &j, "syr2k", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "k", k);
        idiom__json_int(&j, "lower", lower);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("syr2k %s %s n=%lld k=%lld strides A(%lld,%lld) B(%lld,%lld) C(%lld,%lld) on "
                 "blas: %s",
                 elem_name(elem), lower ? "lower" : "upper", (long long)n, (long long)k,
                 (long long)a_sn, (long long)a_sk, (long long)b_sn, (long long)b_sk,
                 (long long)c_sr, (long long)c_sc, idiom__status_name(status));
    return status;
}

/* The largest magnitude of `count` elements `stride` apart from element `at` of `v`, or
   `largest` if that is larger; INFINITY when one is not finite, or, `finite_only`, the
   largest of the finite ones. A tight loop of one type, which the compiler vectorises:
   these scans run beside every call. */
static double line_max(int32_t elem, const void *v, int64_t at, int64_t count, int64_t stride,
                       double largest, int finite_only) {
    int bad = 0;
    if (elem == IDIOM_FLOAT) {
        const float *line = (const float *)v + at;
        float top = 0.0f;
        for (int64_t t = 0; t < count; t++) {
            float value = fabsf(line[t * stride]);
            int finite = value <= FLT_MAX;
            value = finite || !finite_only ? value : 0.0f;
            top = value > top ? value : top;
            bad |= !finite;
        }
        largest = fmax(largest, (double)top);
    } else {
        const double *line = (const double *)v + at;
        double top = 0.0;
        for (int64_t t = 0; t < count; t++) {
            double value = fabs(line[t * stride]);
            int finite = value <= DBL_MAX;
            value = finite || !finite_only ? value : 0.0;
            top = value > top ? value : top;
            bad |= !finite;
        }
        largest = fmax(largest, top);
    }
    return bad && !finite_only ? INFINITY : largest;
}

/* A number no smaller than the largest magnitude among the elements of T's triangle that a
   product or a solve reads (k >= r when `upper`, k <= r otherwise; the diagonal left out
   and counted as 1 when `unit`): each line's magnitude sum where finite, else its largest
   magnitude; INFINITY when one is not finite. By rows or by columns, whichever runs along
   memory. */
static double triangle_max(int32_t elem, int32_t upper, int32_t unit, int64_t m, const void *a,
                           int64_t a_sr, int64_t a_sk, int finite_only) {
    double largest = unit ? 1.0 : 0.0;
    int64_t u = unit ? 1 : 0;
    int by_rows = llabs(a_sk) <= llabs(a_sr);
    for (int64_t line = 0; line < m && isfinite(largest); line++) {
        /* row r = line: k from..to-1 (upper: k >= r + u); column k = line: r from..to-1
           (upper: r <= k - u). The two run from the line on or up to it, crosswise. */
        int64_t from = upper == by_rows ? line + u : 0;
        int64_t to = upper == by_rows ? m : line + 1 - u;
        int64_t at = by_rows ? line * a_sr + from * a_sk : from * a_sr + line * a_sk;
        int64_t stride = by_rows ? a_sk : a_sr;
        if (to > from) {
            double sum = magnitude_sum(elem, a, at, to - from, stride);
            largest = isfinite(sum)
                          ? fmax(largest, sum)
                          : line_max(elem, a, at, to - from, stride, largest, finite_only);
        }
    }
    return largest;
}

/* The sum of the magnitudes of `count` elements of `type` `stride` apart, in double, by this
   thread, in eight lanes that the compiler vectorises where the stride is the constant 1.
   BLAS's asum wakes its threads for a long line, whose hand-over cost more than the read at
   these sizes and made the BLAS call after it wait for them (a SYRK program 0.83 of its
   direct program with asum, 1.0 without). Inf or NaN where an element is not finite, in any
   order of the additions: so they may be reordered. */
#define DEFINE_MAGNITUDE_SUM(name, type)                                                       \
    static inline __attribute__((always_inline)) double name(const type *line, int64_t count, \
                                                              int64_t stride) {              \
        _Pragma("clang fp reassociate(on)") double lanes[8] = {0.0};                           \
        int64_t t = 0;                                                                         \
        for (; t + 8 <= count; t += 8) {                                                       \
            for (int k = 0; k < 8; k++) {                                                      \
                lanes[k] += fabs((double)line[(t + k) * stride]);                              \
            }                                                                                  \
        }                                                                                      \
        for (; t < count; t++) {                                                               \
            lanes[0] += fabs((double)line[t * stride]);                                        \
        }                                                                                      \
        double sum = 0.0;                                                                      \
        for (int k = 0; k < 8; k++) {                                                          \
            sum += lanes[k];                                                                   \
        }                                                                                      \
        return sum;                                                                            \
    }

DEFINE_MAGNITUDE_SUM(float_magnitude_sum, float)
DEFINE_MAGNITUDE_SUM(double_magnitude_sum, double)

/* The sum of the magnitudes of a line of `count` elements `stride` apart from element `at`:
   no smaller than its largest magnitude, and as fast as reading it; Inf or NaN where an
   element is not finite. */
static double magnitude_sum(int32_t elem, const void *v, int64_t at, int64_t count,
                            int64_t stride) {
    if (count <= 0) {
        return 0.0;
    }
    stride = count == 1 ? 1 : stride;
    if (elem == IDIOM_FLOAT) {
        const float *first = (const float *)v + at;
        return stride == 1 ? float_magnitude_sum(first, count, 1)
                           : float_magnitude_sum(first, count, stride);
    }
    const double *first = (const double *)v + at;
    return stride == 1 ? double_magnitude_sum(first, count, 1)
                       : double_magnitude_sum(first, count, stride);
}

/* A number no smaller than the largest magnitude in a rows x cols matrix (a vector: cols
   1): the magnitude sum of the block or of each line where it is finite, else the line's
   largest magnitude; INFINITY when one element is not finite, or, `finite_only`, no smaller
   than the largest finite magnitude. By rows or by columns, whichever runs along memory. */
static double matrix_max(int32_t elem, int64_t rows, int64_t cols, const void *v, int64_t sr,
                         int64_t sc, int finite_only) {
    double largest = 0.0;
    int by_rows = cols == 1 ? 0 : llabs(sc) <= llabs(sr);
    /* A matrix in one block of memory: one sum over all of it (a call per line costs more
       than its sum at a GEMV's sizes); the sum of all magnitudes is no smaller than the
       largest, a looser bound that declines only on extreme data, where the loop runs. A
       finite sum also says that every element is finite (EVERY_ELEMENT); one that is not is
       looked at line by line. */
    int64_t block = rows * cols;
    if (rows > 1 && cols > 1 && block <= INT32_MAX &&
        ((sc == 1 && sr == cols) || (sr == 1 && sc == rows))) {
        double sum = magnitude_sum(elem, v, 0, block, 1);
        if (isfinite(sum)) {
            return sum;
        }
    }
    int64_t lines = by_rows ? rows : cols;
    for (int64_t line = 0; line < lines && isfinite(largest); line++) {
        int64_t at = by_rows ? line * sr : line * sc;
        int64_t count = by_rows ? cols : rows;
        int64_t stride = by_rows ? sc : sr;
        double sum = magnitude_sum(elem, v, at, count, stride);
        largest = isfinite(sum) ? fmax(largest, sum)
                                : line_max(elem, v, at, count, stride, largest, finite_only);
    }
    return largest;
}

/* matrix_max or triangle_max of an operand the call only reads, remembered while the program
   does not write its bytes (idiom_watch.c): a solver's products and solves read one matrix
   again and again, and for a GEMV or a TRSV the scan reads as much memory as the call. */
typedef struct {
    int32_t elem;
    int64_t rows, cols, sr, sc;
    const void *v;
    int finite_only;
    int32_t triangle; /* NO_TRIANGLE, or the `upper` of triangle_max */
    int32_t unit;
} operand;
#define NO_TRIANGLE (-1)

static double operand_max(const void *context) {
    const operand *o = context;
    if (o->triangle != NO_TRIANGLE) {
        return triangle_max(o->elem, o->triangle, o->unit, o->rows, o->v, o->sr, o->sc,
                            o->finite_only);
    }
    return matrix_max(o->elem, o->rows, o->cols, o->v, o->sr, o->sc, o->finite_only);
}

/* The byte offsets from v of the first element of a rows x cols operand and of the end of
   its last one; 0 when they overflow. rows and cols are >= 1. */
static int operand_span(const operand *o, int64_t *first, int64_t *end) {
    int64_t size = o->elem == IDIOM_FLOAT ? (int64_t)sizeof(float) : (int64_t)sizeof(double);
    int64_t along_rows = 0;
    int64_t along_cols = 0;
    if (__builtin_mul_overflow(o->rows - 1, o->sr, &along_rows) ||
        __builtin_mul_overflow(o->cols - 1, o->sc, &along_cols)) {
        return 0;
    }
    int64_t low = (along_rows < 0 ? along_rows : 0) + (along_cols < 0 ? along_cols : 0);
    int64_t high = (along_rows > 0 ? along_rows : 0) + (along_cols > 0 ? along_cols : 0);
    return !__builtin_mul_overflow(low, size, first) &&
           !__builtin_mul_overflow(high + 1, size, end);
}

/* operand_max(o), through idiom__watched_value over o's bytes (a triangle's whole square) */
static double watched_max(const operand *o) {
    int64_t first = 0;
    int64_t end = 0;
    if (o->rows <= 0 || o->cols <= 0 || !operand_span(o, &first, &end)) {
        return operand_max(o);
    }
    int64_t shape[8] = {o->elem, o->rows, o->cols, o->sr, o->sc, o->finite_only, o->triangle,
                        o->unit};
    uint64_t tag = idiom__fnv1a(IDIOM_FNV_START, shape, sizeof shape);
    const char *base = o->v;
    return idiom__watched_value(base + first, base + end, tag, operand_max, o);
}

static double input_max(int32_t elem, int64_t rows, int64_t cols, const void *v, int64_t sr,
                        int64_t sc, int finite_only) {
    /* one operand whichever way round it is read (a BiCG step reads A and A^T) */
    int swap = llabs(sc) > llabs(sr) || (llabs(sc) == llabs(sr) && cols > rows);
    operand o = {elem, swap ? cols : rows, swap ? rows : cols, swap ? sc : sr, swap ? sr : sc,
                 v, finite_only, NO_TRIANGLE, 0};
    return watched_max(&o);
}

static double input_triangle_max(int32_t elem, int32_t upper, int32_t unit, int64_t m,
                                 const void *a, int64_t a_sr, int64_t a_sk, int finite_only) {
    operand o = {elem, m, m, a_sr, a_sk, a, finite_only, upper != 0, unit != 0};
    return watched_max(&o);
}

/* Whether a bound on every magnitude a computation meets, in any order of its operations,
   lies far enough below the type's overflow for no order to overflow: where one order
   overflows and another does not, the loop and BLAS disagree (Inf against a number). An
   infinite input makes the bound infinite too: OpenBLAS multiplies whole blocks, zeros
   outside a triangle included, and 0 * Inf is NaN where the loop keeps numbers. */
static int far_from_overflow(int32_t elem, double bound) {
    double largest = elem == IDIOM_FLOAT ? FLT_MAX : DBL_MAX;
    return isfinite(bound) && bound < largest / 4.0;
}

/* The triangular product in place, B <- alpha * T * B. T's stored matrix is T itself
   (column-major) or T^T (row-major), whose triangle is the other; B's is B, or B^T, for
   which the product is B^T <- alpha * B^T * T^T, T multiplying from the right. */
static int32_t trmm(int32_t elem, int32_t upper, int32_t unit, int64_t m, int64_t n,
                    double alpha, const void *a, int64_t a_sr, int64_t a_sk, void *b,
                    int64_t b_sr, int64_t b_sc) {
    if (!finite_scales(alpha, 0.0)) {
        return IDIOM_DECLINED;
    }
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || m < 0 || n < 0) {
        return IDIOM_DECLINED;
    }
    if (m == 0 || n == 0) {
        return IDIOM_DONE;
    }
    if (m > INT32_MAX || n > INT32_MAX || work_of(m, m + 1, n) / 2 < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    if ((m > 1 && (a_sr <= 0 || a_sk <= 0 || b_sr <= 0)) || (n > 1 && b_sc <= 0)) {
        return IDIOM_DECLINED;
    }
    layout la;
    layout lb;
    if (!describe(m, m, a_sr, a_sk, &la) || !describe(m, n, b_sr, b_sc, &lb)) {
        return IDIOM_DECLINED;
    }
    /* every partial sum of alpha * T * B, in any order, is within this */
    double largest_t = input_triangle_max(elem, upper, unit, m, a, a_sr, a_sk, EVERY_ELEMENT);
    double largest_b = matrix_max(elem, m, n, b, b_sr, b_sc, EVERY_ELEMENT);
    if (!far_from_overflow(elem, fabs(alpha) * largest_b * (1.0 + (double)m * largest_t))) {
        return IDIOM_DECLINED;
    }
    enum CBLAS_UPLO uplo = (upper != 0) != (la.transposed != 0) ? CblasUpper : CblasLower;
    enum CBLAS_SIDE side = lb.transposed ? CblasRight : CblasLeft;
    /* op(stored A) is T on the left, T^T on the right */
    int t_is_stored = !la.transposed;
    enum CBLAS_TRANSPOSE trans = (t_is_stored != (lb.transposed != 0)) ? CblasNoTrans : CblasTrans;
    enum CBLAS_DIAG diag = unit ? CblasUnit : CblasNonUnit;
    blasint rows = (blasint)(lb.transposed ? n : m);
    blasint cols = (blasint)(lb.transposed ? m : n);
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_strmm)(CblasColMajor, side, uplo, trans, diag, rows, cols, (float)alpha, a,
                          (blasint)la.ld, b, (blasint)lb.ld);
    } else {
        BLAS(cblas_dtrmm)(CblasColMajor, side, uplo, trans, diag, rows, cols, alpha, a,
                          (blasint)la.ld, b, (blasint)lb.ld);
    }
    return IDIOM_DONE;
}

int32_t idiom_trmm(int32_t elem, int32_t upper, int32_t unit, int64_t m, int64_t n, double alpha,
                   const void *a, int64_t a_sr, int64_t a_sk, void *b, int64_t b_sr,
                   int64_t b_sc) {
    call_record record = record_start();
    int32_t status = trmm(elem, upper, unit, m, n, alpha, a, a_sr, a_sk, b, b_sr, b_sc);
    idiom_json j;
    if (record_open(&record, &j, "trmm", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "upper", upper);
        idiom__json_int(&j, "unit", unit);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("trmm %s %s%s m=%lld n=%lld strides A(%lld,%lld) B(%lld,%lld) on blas: %s",
                 elem_name(elem), upper ? "upper" : "lower", unit ? " unit" : "", (long long)m,
                 (long long)n, (long long)a_sr, (long long)a_sk, (long long)b_sr,
                 (long long)b_sc, idiom__status_name(status));
    return status;
}

/* The triangular solve in place, T x = x. T's stored matrix is T (column-major) or T^T
   (row-major, whose triangle is the other and which BLAS solves transposed). */
static void trsv_call(int32_t elem, int32_t upper, int32_t unit, int64_t n, const void *a,
                      layout la, void *x, blasint incx) {
    enum CBLAS_UPLO uplo = (upper != 0) != (la.transposed != 0) ? CblasUpper : CblasLower;
    enum CBLAS_TRANSPOSE trans = la.transposed ? CblasTrans : CblasNoTrans;
    enum CBLAS_DIAG diag = unit ? CblasUnit : CblasNonUnit;
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_strsv)(CblasColMajor, uplo, trans, diag, (blasint)n, a, (blasint)la.ld, x,
                          incx);
    } else {
        BLAS(cblas_dtrsv)(CblasColMajor, uplo, trans, diag, (blasint)n, a, (blasint)la.ld, x,
                          incx);
    }
}

/* T x = b by BLAS: b copied into x first (b NULL: x holds it), x kept aside, and put back
   (declined) where the solve may overflow in some order of its operations, or divides by
   zero: which Inf or NaN the loop gets then depends on the order (far_from_overflow). */
static int32_t trsv(int32_t elem, int32_t upper, int32_t unit, int64_t n, const void *a,
                    int64_t a_sr, int64_t a_sc, const void *b, int64_t b_s, void *x,
                    int64_t x_s) {
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || n < 0) {
        return IDIOM_DECLINED;
    }
    if (n == 0) {
        return IDIOM_DONE;
    }
    if (n > INT32_MAX || work_of(n, n + 1, 1) / 2 < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    layout la;
    blasint incx = 1;
    if ((n > 1 && (a_sr <= 0 || a_sc <= 0)) || !describe(n, n, a_sr, a_sc, &la) ||
        !increment(n, x_s, &incx)) {
        return IDIOM_DECLINED;
    }
    size_t size = elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double);
    void *saved = malloc((size_t)n * size);
    if (saved == NULL) {
        return IDIOM_DECLINED;
    }
    copy_vector(elem, n, x, x_s, saved, 1);
    if (b != NULL) {
        copy_vector(elem, n, b, b_s, x, x_s);
    }
    double largest_b = matrix_max(elem, n, 1, x, x_s, 0, EVERY_ELEMENT);
    /* the products' factor from T: its triangle off the diagonal (the diagonal divides) */
    double largest_t = input_triangle_max(elem, upper, 1, n, a, a_sr, a_sc, EVERY_ELEMENT);
    trsv_call(elem, upper, unit, n, a, la, x, incx);
    /* Every partial sum b[i] - sum T[i][k] x[k], in any order, is within |b| + n |T| |x|,
       and every quotient within |x|: all far below overflow. x is BLAS's, the loop's own
       differs from it by rounding only while neither overflows. */
    double largest_x = matrix_max(elem, n, 1, x, x_s, 0, EVERY_ELEMENT);
    double sums = largest_b + (double)n * largest_t * largest_x;
    int safe = far_from_overflow(elem, (largest_b + largest_x) * (double)n) &&
               far_from_overflow(elem, sums);
    if (!safe) {
        copy_vector(elem, n, saved, 1, x, x_s);
    }
    free(saved);
    return safe ? IDIOM_DONE : IDIOM_DECLINED;
}

int32_t idiom_trsv(int32_t elem, int32_t upper, int32_t unit, int64_t n, const void *a,
                   int64_t a_sr, int64_t a_sc, const void *b, int64_t b_s, void *x,
                   int64_t x_s) {
    call_record record = record_start();
    int32_t status = trsv(elem, upper, unit, n, a, a_sr, a_sc, b, b_s, x, x_s);
    idiom_json j;
    if (record_open(&record, &j, "trsv", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "upper", upper);
        idiom__json_int(&j, "unit", unit);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("trsv %s %s%s n=%lld strides A(%lld,%lld) x %lld%s on blas: %s",
                 elem_name(elem), upper ? "upper" : "lower", unit ? " unit" : "", (long long)n,
                 (long long)a_sr, (long long)a_sc, (long long)x_s, b != NULL ? " from b" : "",
                 idiom__status_name(status));
    return status;
}

/* Each element (r, col) of one triangle (strict: the diagonal left out), in the loop's
   order: divided, then mirrored. */
#define FINISH_TRIANGLE(type)                                                                  \
    do {                                                                                       \
        type *elements = (type *)c;                                                            \
        int64_t skip = (flags & IDIOM_FINISH_STRICT) ? 1 : 0;                                  \
        for (int64_t r = 0; r < n; r++) {                                                      \
            int64_t from = lower ? 0 : r + skip;                                               \
            int64_t to = lower ? r + 1 - skip : n;                                             \
            for (int64_t col = from; col < to; col++) {                                        \
                type value = elements[r * c_sr + col * c_sc];                                  \
                if (flags & IDIOM_FINISH_DIVIDE) {                                             \
                    value = value / (type)divisor;                                             \
                    elements[r * c_sr + col * c_sc] = value;                                   \
                }                                                                              \
                if (flags & IDIOM_FINISH_MIRROR) {                                             \
                    elements[col * c_sr + r * c_sc] = value;                                   \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* Reads `size` bytes at `at` into `to` with a write access (an atomic or of 0): a page never
   touched is then given its own memory at once. A plain read would map the shared zero
   page, and BLAS's first store to it would copy it and flush the TLB of every BLAS thread. */
static void read_for_write(void *at, void *to, size_t size) {
    if (size == sizeof(uint32_t) && (uintptr_t)at % sizeof(uint32_t) == 0) {
        uint32_t bits = __atomic_fetch_or((uint32_t *)at, 0u, __ATOMIC_RELAXED);
        memcpy(to, &bits, size);
    } else if (size == sizeof(uint64_t) && (uintptr_t)at % sizeof(uint64_t) == 0) {
        uint64_t bits = __atomic_fetch_or((uint64_t *)at, (uint64_t)0, __ATOMIC_RELAXED);
        memcpy(to, &bits, size);
    } else {
        memcpy(to, at, size); /* unaligned: a lock across two lines would cost more */
    }
}

/* C's diagonal from row `from` to n - 1 (elements at (r, r)) into `diagonal`, or back. */
static void move_diagonal(int32_t elem, int64_t n, int64_t from, void *c, int64_t c_sr,
                          int64_t c_sc, void *diagonal, int back) {
    size_t size = elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double);
    for (int64_t r = from; r < n; r++) {
        char *at = (char *)c + (size_t)(r * (c_sr + c_sc)) * size;
        char *kept = (char *)diagonal + (size_t)(r - from) * size;
        if (back) {
            memcpy(at, kept, size);
        } else {
            read_for_write(at, kept, size);
        }
    }
}

/* A row count clamped to 0..n. */
static int64_t clamp_rows(int64_t rows, int64_t n) {
    return rows < 0 ? 0 : (rows < n ? rows : n);
}

/* The first rows of the diagonal that the loop sets itself (IDIOM_FINISH_DIAGONAL). */
static int64_t rows_set(int32_t flags, int64_t n, int64_t diagonal_rows) {
    return flags & IDIOM_FINISH_DIAGONAL ? clamp_rows(diagonal_rows, n) : 0;
}

void *idiom_triangle_keep_diagonal(int32_t elem, int64_t n, int64_t from, void *c, int64_t c_sr,
                                   int64_t c_sc) {
    size_t size = elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double);
    from = clamp_rows(from, n);
    int64_t kept = n > from ? n - from : 0;
    void *diagonal = malloc((size_t)(kept > 0 ? kept : 1) * size);
    if (diagonal != NULL && kept > 0) {
        move_diagonal(elem, n, from, c, c_sr, c_sc, diagonal, 0);
    }
    return diagonal;
}

int32_t idiom_syrk_finish(int32_t status, int32_t elem, int32_t lower, int64_t n, void *c,
                          int64_t c_sr, int64_t c_sc, int32_t flags, double divisor,
                          void *kept_diagonal, int64_t diagonal_rows, double diagonal_value) {
    if (status == IDIOM_DONE) {
        if (elem == IDIOM_FLOAT) {
            FINISH_TRIANGLE(float);
        } else {
            FINISH_TRIANGLE(double);
        }
        if ((flags & IDIOM_FINISH_STRICT) && kept_diagonal != NULL) {
            move_diagonal(elem, n, rows_set(flags, n, diagonal_rows), c, c_sr, c_sc,
                          kept_diagonal, 1);
        }
        if (flags & IDIOM_FINISH_DIAGONAL) {
            for (int64_t r = 0; r < diagonal_rows; r++) {
                if (elem == IDIOM_FLOAT) {
                    ((float *)c)[r * (c_sr + c_sc)] = (float)diagonal_value;
                } else {
                    ((double *)c)[r * (c_sr + c_sc)] = diagonal_value;
                }
            }
        }
        idiom__trace("syrk finish n=%lld%s%s%s%s", (long long)n,
                     (flags & IDIOM_FINISH_DIVIDE) ? " divided" : "",
                     (flags & IDIOM_FINISH_MIRROR) ? " mirrored" : "",
                     (flags & IDIOM_FINISH_STRICT) ? " strict" : "",
                     (flags & IDIOM_FINISH_DIAGONAL) ? " diagonal set" : "");
    }
    free(kept_diagonal);
    return status;
}

/* One rank-1 update of the layout `la` (column-major as it stands, or the transpose). */
static void ger_once(int32_t elem, int64_t m, int64_t n, double alpha, const void *x,
                     blasint incx, const void *y, blasint incy, void *a, layout la) {
    /* A row-major A is the column-major storage of A^T, and A^T += alpha y x^T. */
    const void *first = la.transposed ? y : x;
    const void *second = la.transposed ? x : y;
    blasint inc1 = la.transposed ? incy : incx;
    blasint inc2 = la.transposed ? incx : incy;
    blasint rows = (blasint)(la.transposed ? n : m);
    blasint cols = (blasint)(la.transposed ? m : n);
    if (elem == IDIOM_FLOAT) {
        BLAS(cblas_sger)(CblasColMajor, rows, cols, (float)alpha, first, inc1, second, inc2, a,
                         (blasint)la.ld);
    } else {
        BLAS(cblas_dger)(CblasColMajor, rows, cols, alpha, first, inc1, second, inc2, a,
                         (blasint)la.ld);
    }
}

/* Whether the products of a rank-1 or rank-2 update are far from overflow (a product
   differs from the loop's only by where alpha multiplies: rounding). A itself needs no
   bound: one product is added to it as the loop adds it, and two as one sum (ger_pair). */
static int ger_far_from_overflow(int32_t elem, int64_t m, int64_t n, double alpha1,
                                 const void *x1, int64_t x1_s, const void *y1, int64_t y1_s,
                                 double alpha2, const void *x2, int64_t x2_s, const void *y2,
                                 int64_t y2_s) {
    double first = fmax(1.0, fabs(alpha1)) *
                   matrix_max(elem, m, 1, x1, x1_s, 0, FINITE_ELEMENTS) *
                   matrix_max(elem, n, 1, y1, y1_s, 0, FINITE_ELEMENTS);
    double second = x2 == NULL ? 0.0
                               : fmax(1.0, fabs(alpha2)) *
                                     matrix_max(elem, m, 1, x2, x2_s, 0, FINITE_ELEMENTS) *
                                     matrix_max(elem, n, 1, y2, y2_s, 0, FINITE_ELEMENTS);
    return far_from_overflow(elem, first + second);
}

/* A + (p1 + p2) as the loop groups a rank-2 update: one GEMM of inner dimension 2, whose
   kernel sums the two products of an element before adding them to it (two rank-1 updates
   would add (A + p1) + p2, which overflows where A is near the largest number and the
   loop's sum does not; bounding A instead read all of it at every call). The vectors are
   copied into an m x 2 and a 2 x n matrix, alpha on the first. */
static int32_t ger_pair(int32_t elem, int64_t m, int64_t n, double alpha1, const void *x1,
                        int64_t x1_s, const void *y1, int64_t y1_s, double alpha2,
                        const void *x2, int64_t x2_s, const void *y2, int64_t y2_s, void *a,
                        int64_t a_sm, int64_t a_sn) {
    size_t size = elem == IDIOM_FLOAT ? sizeof(float) : sizeof(double);
    char *left = malloc(2 * (size_t)m * size);
    char *right = malloc(2 * (size_t)n * size);
    int32_t status = IDIOM_DECLINED;
    if (left != NULL && right != NULL) {
        scaled_copy(elem, m, alpha1, x1, x1_s, left, 1);
        scaled_copy(elem, m, alpha2, x2, x2_s, left + (size_t)m * size, 1);
        copy_vector(elem, n, y1, y1_s, right, 1);
        copy_vector(elem, n, y2, y2_s, right + (size_t)n * size, 1);
        /* left: (i, k) at i + k m; right: (k, j) at k n + j */
        status = gemm_at_least(elem, m, n, 2, 1.0, left, 1, m, right, n, 1, 1.0, a, a_sm, a_sn,
                               0, !BOUNDED);
    }
    free(left);
    free(right);
    return status;
}

static int32_t ger(int32_t elem, int64_t m, int64_t n, double alpha1, const void *x1,
                   int64_t x1_s, const void *y1, int64_t y1_s, double alpha2, const void *x2,
                   int64_t x2_s, const void *y2, int64_t y2_s, void *a, int64_t a_sm,
                   int64_t a_sn) {
    if (!finite_scales(alpha1, alpha2)) {
        return IDIOM_DECLINED;
    }
    if (idiom__device_mode() == IDIOM_MODE_OFF) {
        return IDIOM_DECLINED;
    }
    if ((elem != IDIOM_FLOAT && elem != IDIOM_DOUBLE) || m < 0 || n < 0) {
        return IDIOM_DECLINED;
    }
    if (m == 0 || n == 0) {
        return IDIOM_DONE;
    }
    int products = x2 != NULL ? 2 : 1;
    if (m > INT32_MAX || n > INT32_MAX || work_of(m, n, products) < blas_min_work()) {
        return IDIOM_DECLINED;
    }
    /* Everything is checked before the first update: declining after it would run the
       loop over a half-updated A. */
    layout la;
    blasint incx1 = 1, incy1 = 1, incx2 = 1, incy2 = 1;
    if (!describe(m, n, a_sm, a_sn, &la) || !increment(m, x1_s, &incx1) ||
        !increment(n, y1_s, &incy1)) {
        return IDIOM_DECLINED;
    }
    if (products == 2 && (!increment(m, x2_s, &incx2) || !increment(n, y2_s, &incy2))) {
        return IDIOM_DECLINED;
    }
    if (!ger_far_from_overflow(elem, m, n, alpha1, x1, x1_s, y1, y1_s, alpha2, x2, x2_s, y2,
                               y2_s)) {
        return IDIOM_DECLINED;
    }
    if (products == 2) {
        return ger_pair(elem, m, n, alpha1, x1, x1_s, y1, y1_s, alpha2, x2, x2_s, y2, y2_s, a,
                        a_sm, a_sn);
    }
    ger_once(elem, m, n, alpha1, x1, incx1, y1, incy1, a, la);
    return IDIOM_DONE;
}

int32_t idiom_ger(int32_t elem, int64_t m, int64_t n, double alpha1, const void *x1, int64_t x1_s,
                  const void *y1, int64_t y1_s, double alpha2, const void *x2, int64_t x2_s,
                  const void *y2, int64_t y2_s, void *a, int64_t a_sm, int64_t a_sn) {
    call_record record = record_start();
    int32_t status = ger(elem, m, n, alpha1, x1, x1_s, y1, y1_s, alpha2, x2, x2_s, y2, y2_s, a,
                         a_sm, a_sn);
    idiom_json j;
    if (record_open(&record, &j, "ger", status)) {
        idiom__json_int(&j, "elem", elem);
        idiom__json_int(&j, "m", m);
        idiom__json_int(&j, "n", n);
        idiom__json_int(&j, "products", x2 != NULL ? 2 : 1);
        idiom__stats_emit(&j, record.stats);
    }
    idiom__trace("ger %s m=%lld n=%lld products=%d strides A(%lld,%lld) on blas: %s",
                 elem_name(elem), (long long)m, (long long)n, x2 != NULL ? 2 : 1,
                 (long long)a_sm, (long long)a_sn, idiom__status_name(status));
    return status;
}
