/* Device copies of host memory kept between launches (idiom_resident.c); not part of the ABI.
 *
 * An entry is a device buffer holding a copy of the host bytes [lo, hi). Kernels read and write
 * entries in place; the bytes a kernel wrote are "newer on the device" until they are copied
 * back. Entries live until the program touches host memory: the rewritten program calls
 * idiom_host_access() before any host access that may follow a launch
 * (mappers/residency/placement.py decides where), which copies back what is newer on the device and forgets every entry. An
 * argument that is not resident but overlaps an entry evicts that entry first, and BLAS calls
 * begin with idiom_host_access(), so host and device never disagree about a byte both use.
 *
 * Every function here is called with the residency lock held (idiom__resident_lock).
 */
#ifndef IDIOM_RESIDENT_H
#define IDIOM_RESIDENT_H

#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <stdint.h>

#include "idiom_internal.h"

/* How many entries there are; the rewritten program reads it too
 * (mappers/residency/host_fast.py). */
extern _Atomic int idiom_device_entries;

/* Bytes moved by one launch, and the host time the copies took. */
typedef struct {
    double seconds;
    int64_t uploaded;
    int64_t downloaded;
    int64_t staged; /* of `uploaded`, bytes sent from the runtime's copies (idiom__stage) */
} idiom_traffic;

/* A copy of `bytes` bytes at `data`, for an upload queued on device `slot`'s `queue`, that
 * stays valid until the queue has run past every command queued now; NULL where the bytes
 * are too many (the upload then reads the program's memory, and the launch waits for it).
 * Defined in idiom_opencl.c. */
IDIOM_HIDDEN const void *idiom__stage(int slot, cl_command_queue queue, const void *data,
                                      size_t bytes);

/* Residency is on: the program called idiom_residency_on() and IDIOM_RESIDENT is not "0". */
IDIOM_HIDDEN int idiom__resident_on(void);

IDIOM_HIDDEN void idiom__resident_lock(void);
IDIOM_HIDDEN void idiom__resident_unlock(void);

/* Copies back what is newer on the device in every entry whose claim (the bytes launches
 * asked it for) overlaps [lo, hi), then forgets those entries. Returns the first OpenCL error
 * (the entries are forgotten regardless). */
IDIOM_HIDDEN cl_int idiom__resident_evict(uintptr_t lo, uintptr_t hi, idiom_traffic *traffic);

/* Makes sure one entry of device `slot` claims [lo, hi): an entry already claiming it is kept;
 * otherwise one entry claiming [lo, hi) and every claim overlapping it is created: the claims
 * of `slot`'s entries it covers are copied into it on the device (their newer bytes stay
 * newer), the rest comes from the host. Entries used in launch `generation` are never evicted
 * to make room; others are when the device's `budget` of bytes would be exceeded.
 * This relies on every claimed byte of an entry that is not newer there being equal to the
 * host's: see idiom__resident_refresh. When the launch `reads` the range, a kept entry gets
 * the host's bytes on the claim's partial pages again (idiom_guard.c), where they changed since
 * host and device last agreed on them; the launch says so for its outputs too, since the
 * bytes of their ranges a kernel does not write go back to the host with the others. */
IDIOM_HIDDEN cl_int idiom__resident_acquire(int slot, cl_context context, cl_command_queue queue,
                                            uint64_t budget, uint64_t generation, uintptr_t lo,
                                            uintptr_t hi, int reads, idiom_traffic *traffic);

/* The buffer of the entry of `slot` holding [lo, hi), and lo's byte offset in it; NULL if none. */
IDIOM_HIDDEN cl_mem idiom__resident_find(int slot, uintptr_t lo, uintptr_t hi, size_t *offset);

/* What says a device copy of some bytes is still the copy it was: the entry holding them
   (id), how often its claimed bytes changed (version), and the parts of the bytes on partial
   pages, which the host may write unseen ([edges[k][0], edges[k][1]), possibly empty). */
typedef struct {
    uint64_t id;
    uint64_t version;
    uintptr_t edges[2][2];
} idiom_stamp;

/* The stamp of [lo, hi) on `slot`: 1 where one entry holds it, else 0. Two equal stamps,
   with equal host bytes on the edges, mean the device's copy of the bytes did not change in
   between, nor the host's: a write of the host to a whole page would have dropped the entry
   (the safety net; without it, the compiler's host accesses do). */
IDIOM_HIDDEN int idiom__resident_stamp(int slot, uintptr_t lo, uintptr_t hi, idiom_stamp *stamp);

/* How many bytes of [lo, hi) entries of `slot` claim (`held`: claims do not overlap), and how
   many of them, on any device, are newer there than on the host (`newer`: what the host would
   have to copy back to run the loop itself). */
IDIOM_HIDDEN void idiom__resident_coverage(int slot, uintptr_t lo, uintptr_t hi, int64_t *held,
                                           int64_t *newer);

/* The host's bytes [lo, hi) changed without a host access: a launch copied an output that is
 * not resident back there. Entries claiming some of those bytes get them again, so that
 * merging entries on the device never brings back stale ones. */
IDIOM_HIDDEN cl_int idiom__resident_refresh(uintptr_t lo, uintptr_t hi, idiom_traffic *traffic);

/* Waits for the copies to the host that idiom__resident_wrote queued (a launch's partial
   pages): called once before the launch returns. */
IDIOM_HIDDEN cl_int idiom__resident_settle(void);

/* A kernel wrote [lo, hi) of the entry holding it: those bytes are newer on the device, except
 * those on the claim's partial first and last pages, which are copied back at once (they
 * cannot be protected). */
IDIOM_HIDDEN cl_int idiom__resident_wrote(int slot, uintptr_t lo, uintptr_t hi,
                                          idiom_traffic *traffic);

/* Whether idiom__resident_wrote(slot, lo, hi) would copy bytes back (partial pages that are
   not protected): a launch that must not wait asks first. */
IDIOM_HIDDEN int idiom__resident_wrote_copies(int slot, uintptr_t lo, uintptr_t hi);

/* A new launch number, for idiom__resident_acquire. */
IDIOM_HIDDEN uint64_t idiom__resident_generation(void);

/* After a launch: protects the whole pages of every device copy (idiom_guard.c), read-only
 * where the copy equals the host's bytes, not accessible where the device holds newer ones;
 * a copy whose pages cannot be protected is dropped (copied back, forgotten) at once. */
IDIOM_HIDDEN cl_int idiom__resident_guard(idiom_traffic *traffic);

/* The fault handler's question: is `address` on a protected page of a device copy? If so the
 * copy is dropped (its newer bytes copied back, its pages unprotected) and 1 returned. */
IDIOM_HIDDEN int idiom__resident_fault(uintptr_t address);

/* The calling thread holds the residency lock (a fault there is the runtime's own bug). */
IDIOM_HIDDEN int idiom__resident_lock_is_mine(void);

/* idiom_guard.c. The safety net is on unless IDIOM_SAFETY_NET=0 (read once). */
IDIOM_HIDDEN int idiom__guard_enabled(void);
/* The whole pages inside [lo, hi): [*from, *to), empty when *from == *to. */
IDIOM_HIDDEN void idiom__guard_interior(uintptr_t lo, uintptr_t hi, uintptr_t *from,
                                        uintptr_t *to);
/* Every page [lo, hi) touches: [*from, *to). */
IDIOM_HIDDEN void idiom__guard_pages(uintptr_t lo, uintptr_t hi, uintptr_t *from, uintptr_t *to);
/* [lo, hi) lies in an allocation that has its pages to itself (a block glibc mapped for it
   alone): its partial first and last pages may be protected too. The caller holds no
   protection on lo's page. */
IDIOM_HIDDEN int idiom__guard_private(uintptr_t lo, uintptr_t hi);
/* mprotect of [from, to), installing the fault handler before the first protection. */
IDIOM_HIDDEN int idiom__guard_protect(uintptr_t from, uintptr_t to, int readable, int writable);
/* How many faults the handler resolved (IDIOM_STATS). */
IDIOM_HIDDEN long idiom__guard_faults(void);

/* The kernel object `name` of `program`, created once and kept, and its parameters' count. */
IDIOM_HIDDEN cl_kernel idiom__kernel_for(cl_program program, const char *name,
                                         cl_uint *arguments, cl_int *err);
/* clSetKernelArg of a kernel from idiom__kernel_for. A `scalar` equal to the value that
   argument was last set to is not set again (the kernel object keeps it); every argument of
   such a kernel is set through here, so that what it keeps is known. */
IDIOM_HIDDEN cl_int idiom__set_arg(cl_kernel kernel, cl_uint index, size_t size,
                                   const void *value, int scalar);

/* A read-write buffer for `bytes` on `slot`, reused when a launch gave one back. Device
   buffers that kernels write are allocated in whole 8-byte words (idiom__whole_words): a
   kernel adding into bytes or shorts swaps the 32-bit word that holds each one
   (lift/opencl/generate.py, NARROW_ATOMICS), which may reach up to 3 bytes past the last. */
IDIOM_HIDDEN cl_mem idiom__pool_take(int slot, cl_context context, size_t bytes, cl_int *err);
static inline size_t idiom__whole_words(size_t bytes) { return (bytes + 7) & ~(size_t)7; }
IDIOM_HIDDEN void idiom__pool_give(int slot, cl_mem mem, size_t bytes);

#endif /* IDIOM_RESIDENT_H */
