/* Launch shapes tuned on the device (idiom_tune.c); not part of the ABI.
 *
 * A kernel the Lift compiler generates for a stencil or a map computes every element whatever
 * its NDRange: each loop strides by its range's size (lift/opencl/generate.py). Its
 * work-group's shape, and how many elements a work-item takes (the outermost dimension's
 * global size divided by a factor), change only how fast it runs. For such a launch
 * (IDIOM_CL_ANY_RANGE) the runtime times candidate shapes on the device it launches on, the
 * caller's own first, each twice, on the program's own launches (each computes the whole
 * result, so no work is thrown away), keeps the fastest by kernel time, and remembers it per
 * (kernel source, size class, device) in the cache folder ("tune"), so that later runs start
 * with it. The candidates are those of the Lift exploration's launch parameters
 * (lift/exploration/space.py): work-groups of 64 to 256 items, 1 to 8 elements an item.
 *
 * IDIOM_TUNE=0 keeps the caller's shape, IDIOM_TUNE=1 tunes on any device; by default a GPU's
 * launches are tuned and a CPU device's are not. IDIOM_TUNE_CANDIDATE=k launches every tuned
 * launch with candidate k (the last where there are fewer), timing nothing: the tests run
 * their programs under each shape. Both are read once per process.
 */
#ifndef IDIOM_TUNE_H
#define IDIOM_TUNE_H

#include <stdint.h>

#include "idiom_internal.h"

typedef struct {
    int64_t global[3];
    int64_t local[3];
    int driver_local; /* the caller's NULL local size: the driver chooses */
    int candidate; /* the candidate being timed, or -1: the shape chosen (or the caller's) */
} idiom_tune_shape;

/* Whether launches on a device of this kind are tuned (IDIOM_TUNE, above). */
IDIOM_HIDDEN int idiom__tune_on(int gpu);

/* The shape of a launch of `kernel` (its site `site`) with the caller's global and local sizes
   (local NULL: the driver's choice) on `device`:
   the one chosen for its size class, or the next candidate to time. */
IDIOM_HIDDEN void idiom__tune_shape(uint64_t site, const char *kernel, const char *device,
                                    int32_t dims, const int64_t *global, const int64_t *local,
                                    idiom_tune_shape *shape);

/* A timed candidate's kernel seconds, for the same caller's sizes; negative where its launch
   failed (the candidate is then never chosen). */
IDIOM_HIDDEN void idiom__tune_timed(uint64_t site, const char *kernel, const char *device,
                                    int32_t dims, const int64_t *global, const int64_t *local,
                                    int candidate, double seconds);

#endif /* IDIOM_TUNE_H */
