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

/* The smallest page size of the hosts served: a gap shorter than this between two rows
   lies on pages that hold bytes of one or the other. */
#define IDIOM_PAGE_BYTES 4096u

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

/* The lowest address and the extent of `count` entries of `size` bytes `stride` apart. */
static void entries_range(int64_t stride, int64_t count, int64_t *low, int64_t *extent) {
    int64_t last = stride * (count - 1);
    *low = last < 0 ? last : 0;
    *extent = last < 0 ? -last : last;
}

int64_t idiom_row_grid_step(const void *table, int64_t outer_stride, int64_t outer_count,
                            int64_t inner_stride, int64_t inner_count, int64_t inner_step) {
    if (outer_count < 1 || inner_count < 1 || inner_step == IDIOM_NO_ROW_STEP) {
        return IDIOM_NO_ROW_STEP;
    }
    const char *entries = (const char *)table;
    int64_t outer_low, outer_extent, inner_low, inner_extent;
    entries_range(outer_stride, outer_count, &outer_low, &outer_extent);
    entries_range(inner_stride, inner_count, &inner_low, &inner_extent);
    idiom_host_access_at(entries + outer_low + inner_low,
                         outer_extent + inner_extent + (int64_t)sizeof(void *));
    uintptr_t first = (uintptr_t)*(void *const *)entries;
    int64_t outer_step = 0;
    if (outer_count > 1) {
        outer_step = (int64_t)((uintptr_t)*(void *const *)(entries + outer_stride) - first);
        if (outer_step == IDIOM_NO_ROW_STEP) {
            return IDIOM_NO_ROW_STEP;
        }
    }
    for (int64_t r = 0; r < outer_count; r++) {
        uintptr_t start = first + (uintptr_t)r * (uintptr_t)outer_step;
        for (int64_t q = 0; q < inner_count; q++) {
            const char *entry = entries + r * outer_stride + q * inner_stride;
            uintptr_t row = (uintptr_t)*(void *const *)entry;
            if (row != start + (uintptr_t)q * (uintptr_t)inner_step) {
                return IDIOM_NO_ROW_STEP;
            }
        }
    }
    return outer_step;
}

/* The bytes of `count` entries of `size` bytes, `stride` bytes apart, as the host reads
 * them: copied back first where the device holds a newer copy. */
static void host_reads(const void *first, int64_t stride, int64_t count, int64_t size) {
    const char *entries = (const char *)first;
    int64_t last = stride * (count - 1);
    const char *low = last < 0 ? entries + last : entries;
    idiom_host_access_at(low, (last < 0 ? -last : last) + size);
}

/* A row's length as the loop reads it: signed (the loop's bound is the length or its
   sign extension: HPCG's lengths are chars). */
static int64_t read_length(const char *at, int32_t bytes) {
    switch (bytes) {
    case 1:
        return *(const int8_t *)at;
    case 2:
        return *(const int16_t *)at;
    case 4:
        return *(const int32_t *)at;
    default:
        return *(const int64_t *)at;
    }
}

/* Where row `t`'s entries start in its table's block, in elements from the block's first
   byte, given where the row before ended (`*end`, bytes): -1 where the row starts before
   that end, a page or more after it, or off the elements' grid. A gap of less than a page
   between two rows lies on pages that hold bytes of one row or the other: every page of
   the block is mapped, so copying the whole block reads nothing the program could not. */
static int64_t row_index(uintptr_t first, uintptr_t row, int64_t element, int64_t *end) {
    if (row < first + (uintptr_t)*end || row - first - (uintptr_t)*end >= IDIOM_PAGE_BYTES ||
        (row - first) % (uintptr_t)element != 0) {
        return -1;
    }
    return (int64_t)((row - first) / (uintptr_t)element);
}

int64_t idiom_rows_block(const void *values, int64_t values_stride, int64_t value_bytes,
                         const void *columns, int64_t columns_stride, int64_t column_bytes,
                         const void *lengths, int64_t length_stride, int32_t length_bytes,
                         int64_t count) {
    if (count < 1 || value_bytes < 1 || column_bytes < 1 ||
        (length_bytes != 1 && length_bytes != 2 && length_bytes != 4 && length_bytes != 8)) {
        return -1;
    }
    host_reads(values, values_stride, count, (int64_t)sizeof(void *));
    host_reads(columns, columns_stride, count, (int64_t)sizeof(void *));
    host_reads(lengths, length_stride, count, length_bytes);
    const char *v_rows = (const char *)values, *c_rows = (const char *)columns;
    const char *sizes = (const char *)lengths;
    uintptr_t v_first = (uintptr_t)*(void *const *)v_rows;
    uintptr_t c_first = (uintptr_t)*(void *const *)c_rows;
    if (v_first % (uintptr_t)value_bytes != 0 || c_first % (uintptr_t)column_bytes != 0) {
        return -1;
    }
    int64_t v_end = 0, c_end = 0, total = 0; /* bytes from each block's first; elements */
    for (int64_t t = 0; t < count; t++) {
        int64_t length = read_length(sizes + t * length_stride, length_bytes);
        if (length <= 0) {
            continue; /* the loop reads nothing of this row: its pointers may be anything */
        }
        uintptr_t v_row = (uintptr_t)*(void *const *)(v_rows + t * values_stride);
        uintptr_t c_row = (uintptr_t)*(void *const *)(c_rows + t * columns_stride);
        /* The first row with entries starts its blocks (an empty row before it points
           there too, or the block would start at a pointer nobody follows). */
        int64_t at = row_index(v_first, v_row, value_bytes, &v_end);
        if (at < 0 || (total == 0 && at != 0) ||
            at != row_index(c_first, c_row, column_bytes, &c_end) ||
            length > (INT64_MAX / 8 - at) / value_bytes || length > INT64_MAX / 8 / column_bytes) {
            return -1; /* the kernel reads a row at the same index of both blocks */
        }
        total = at + length;
        v_end = total * value_bytes;
        c_end = total * column_bytes;
    }
    return total;
}
