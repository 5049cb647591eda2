/* A runtime for host_ranges_probe.c that only records the host accesses made while a case
 * runs (probe_armed): the ranges given to idiom_host_access_at, or that everything was asked
 * for (idiom_host_access, or the range that stands for it: from address 0, INT64_MAX bytes).
 * It says there are device copies, so the ranges are always computed and every host access is
 * called, and declines every launch, so the original loops run. */
#include <stdint.h>

#define ROOM 64

long probe_count;
const char *probe_lo[ROOM];
long probe_bytes[ROOM];
int probe_everything;
int probe_armed;

void idiom_residency_on(void) {}

void idiom_private_pages(const void *start, int64_t bytes) { /* nothing protected here */
    (void)start;
    (void)bytes;
}

void idiom_host_access(void) {
    if (probe_armed) {
        probe_everything = 1;
    }
}

void idiom_host_access_at(const void *address, int64_t bytes) {
    if (!probe_armed || address == (const void *)&probe_armed) {
        return; /* outside a case, or the store that ends it */
    }
    if ((address == 0 && bytes == INT64_MAX) || probe_count == ROOM) {
        probe_everything = 1;
        return;
    }
    probe_lo[probe_count] = (const char *)address;
    probe_bytes[probe_count++] = bytes;
}

int32_t idiom_device_copies(void) {
    return 1;
}

int idiom_device_entries = 1; /* the rewritten program's inline test reads it */

int64_t idiom_cl_min_work_known = INT64_MAX; /* read by guards before they call */

/* The rewritten world (mappers/rewrite/worlds.py): its host accesses are what this probe records. */
int8_t idiom_world = 2;

int32_t idiom_world_decide(void) {
    return 0;
}

int64_t idiom_cl_min_work(void) {
    return INT64_MAX;
}

int32_t idiom_cl_run(const char *source, const char *name, int32_t dims, const int64_t *global,
                     const int64_t *local, int64_t work, int32_t nargs, void *args) {
    (void)source, (void)name, (void)dims, (void)global, (void)local, (void)work, (void)nargs;
    (void)args;
    return 1; /* declined: the original code runs */
}
