/* Tables of row pointers (`double **A`, read as A[i][j]).
 *
 * A matrix given as a table of row pointers is one strided matrix when its rows lie equally
 * spaced, as rows allocated one after another usually do. The rewriter's guard asks here,
 * once per call, for the first row and the common distance; it reads the table as the
 * original loop would, entry by entry, so it reads nothing the loop would not.
 */
#include <stddef.h>
#include <stdint.h>

#include "idiom_runtime.h"

void *idiom_row_first(const void *table, int64_t count) {
    if (count < 1) {
        return NULL;
    }
    idiom_host_access_at(table, (int64_t)sizeof(void *));
    return *(void *const *)table;
}

int64_t idiom_row_step(const void *table, int64_t stride, int64_t count) {
    if (count < 1) {
        return IDIOM_NO_ROW_STEP;
    }
    if (count == 1) {
        return 0;
    }
    const char *entries = (const char *)table;
    /* The table's bytes, whichever way the loop walks it. */
    int64_t last = stride * (count - 1);
    const char *low = last < 0 ? entries + last : entries;
    idiom_host_access_at(low, (last < 0 ? -last : last) + (int64_t)sizeof(void *));
    uintptr_t first = (uintptr_t)*(void *const *)entries;
    uintptr_t second = (uintptr_t)*(void *const *)(entries + stride);
    int64_t step = (int64_t)(second - first);
    if (step == IDIOM_NO_ROW_STEP) {
        return IDIOM_NO_ROW_STEP;
    }
    for (int64_t t = 2; t < count; t++) {
        uintptr_t row = (uintptr_t)*(void *const *)(entries + t * stride);
        if (row != first + (uintptr_t)t * (uintptr_t)step) {
            return IDIOM_NO_ROW_STEP;
        }
    }
    return step;
}
