/* Where each chunk of a scan starts.
 *
 * A scan on the device runs as two generated kernels (mappers/targets/scan.py): the first
 * folds each chunk of the values into its total, the second scans each chunk from where it
 * starts. Between them the host scans the chunks' totals, a few thousand values, in order:
 * starts[k] = z op totals[0] op ... op totals[k-1]. Integers wrap as the loop's own add and
 * mul do (two's complement), floating-point values are folded in the same order as a
 * work-item would fold them. The fold of every total, the scan's last running value, is left
 * in *start. A floating-point sum gives each chunk's sum of magnitudes too: where those add
 * up to more than the largest finite value (or to a NaN), some order of the additions may
 * overflow, and the scan is declined (1) before anything is written.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "idiom_runtime.h"

#define SCAN_STARTS(T, FOLD)                                                                    \
    do {                                                                                        \
        const T *t = (const T *)totals;                                                         \
        T *s = (T *)starts;                                                                     \
        T running = *(T *)start;                                                                \
        for (int64_t k = 0; k < count; k++) {                                                   \
            s[k] = running;                                                                     \
            running = FOLD(running, t[k]);                                                      \
        }                                                                                       \
        *(T *)start = running;                                                                  \
    } while (0)

#define ADD_I32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define MUL_I32(a, b) ((int32_t)((uint32_t)(a) * (uint32_t)(b)))
#define ADD_I64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define MUL_I64(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
#define ADD(a, b) ((a) + (b))

/* The start's magnitude plus the chunks' sums of magnitudes is finite (no order of the
   additions can overflow: reordering only rounds differently); a NaN declines too. */
#define SETTLED(T)                                                                              \
    do {                                                                                        \
        const T *m = (const T *)magnitudes;                                                     \
        T z = *(const T *)start; /* added into every output: its magnitude counts too */       \
        T sum = z < 0 ? -z : z;                                                                 \
        for (int64_t k = 0; k < count; k++) {                                                   \
            sum += m[k];                                                                        \
        }                                                                                       \
        if (!(sum < (T)INFINITY)) {                                                             \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

int32_t idiom_scan_starts(int32_t kind, int32_t multiply, const void *totals, void *starts,
                          int64_t count, void *start, const void *magnitudes) {
    if (magnitudes != NULL && kind == IDIOM_SCAN_F32) {
        SETTLED(float);
    } else if (magnitudes != NULL && kind == IDIOM_SCAN_F64) {
        SETTLED(double);
    }
    switch (kind * 2 + (multiply != 0)) {
    case IDIOM_SCAN_I32 * 2:
        SCAN_STARTS(int32_t, ADD_I32);
        return 0;
    case IDIOM_SCAN_I32 * 2 + 1:
        SCAN_STARTS(int32_t, MUL_I32);
        return 0;
    case IDIOM_SCAN_I64 * 2:
        SCAN_STARTS(int64_t, ADD_I64);
        return 0;
    case IDIOM_SCAN_I64 * 2 + 1:
        SCAN_STARTS(int64_t, MUL_I64);
        return 0;
    case IDIOM_SCAN_F32 * 2: /* floating-point sums only: products keep their loop */
        SCAN_STARTS(float, ADD);
        return 0;
    case IDIOM_SCAN_F64 * 2:
        SCAN_STARTS(double, ADD);
        return 0;
    default:
        return 1;
    }
}
