/* Device residency: host ranges kept on the device between launches (see idiom_resident.h).
 *
 * This is what lets an iterative program (a time loop around a stencil, repeated reductions)
 * copy its arrays to the device once instead of at every call. Entries are a short list: a
 * program has a few arrays (and trim keeps it short when it has not). Their buffers are widened to ALIGN-byte boundaries, so that every
 * naturally aligned host object sits at an aligned offset in its device buffer; the widening
 * stays within the same page, and the extra bytes are only ever uploaded, never copied back.
 * Everything else (which entry holds a range, what a host access evicts, what merges) goes by
 * the bytes launches claimed, so that arrays malloc placed side by side stay separate entries.
 */
#define _POSIX_C_SOURCE 200809L

#include "idiom_resident.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN ((uintptr_t)128) /* divides any page size; >= every element's alignment */

typedef struct entry {
    struct entry *next;
    int slot;
    cl_command_queue queue;
    uintptr_t lo, hi; /* the host bytes the buffer holds, widened to ALIGN boundaries */
    /* The bytes launches asked for (their union's hull): the only ones the entry answers for.
       The widened bytes around them may be another array's, and go stale when the host
       writes that array: they are never read by a kernel, copied back or merged. */
    uintptr_t claim_lo, claim_hi;
    cl_mem mem;
    uintptr_t newer_lo, newer_hi; /* written by kernels, not yet copied back (empty: lo == hi) */
    uint64_t generation;          /* the last launch that used it */
    /* Its claim has the pages it touches to itself (idiom__guard_private): all of them are
       protected, partial ones included, and it has no edges to keep equal on both sides. */
    int private_pages;
    int guard;                    /* GUARD_*: how its whole pages are protected now */
    uint64_t id;                  /* unique over the process: a new entry is a new copy */
    uint64_t version;             /* how many times its claimed bytes changed since made */
    /* The bytes on the claim's partial pages as host and device last both held them (NULL:
       unknown): an upload of equal bytes is skipped (upload_edges). */
    unsigned char *edges;
    int edges_pending; /* copied back from the device: known once the copy is waited for */
    struct entry *next_pending;
} entry;

/* The safety net (idiom_guard.c): the whole pages of a claim are
   protected while the device holds a copy, read-only when the copy equals the host's bytes,
   not at all accessible when the device holds newer bytes. */
enum { GUARD_OFF, GUARD_READ, GUARD_NONE };
static int set_guard(entry *e, int guard);
static cl_int upload_edges(entry *e, idiom_traffic *traffic);
static void edge_ranges(const entry *e, uintptr_t *from, uintptr_t *to);
static void snapshot_edges(entry *e);
static void edges_copied_back(entry *e);
static void take_pending_edges(int landed);
static cl_int copy_back(entry *e, uintptr_t lo, uintptr_t hi, idiom_traffic *traffic);

/* The pages whose protection the entry sets: every page of a private claim, else the whole
   pages inside the claim. */
static void guarded_pages(const entry *e, uintptr_t *from, uintptr_t *to) {
    if (e->private_pages) {
        idiom__guard_pages(e->claim_lo, e->claim_hi, from, to);
    } else {
        idiom__guard_interior(e->claim_lo, e->claim_hi, from, to);
    }
}

/* The host bytes the entry answers for: its claim, and for a private claim the rest of its
   pages too (the host cannot touch them while they are protected). */
static void span_of(const entry *e, uintptr_t *lo, uintptr_t *hi) {
    if (e->private_pages) {
        idiom__guard_pages(e->claim_lo, e->claim_hi, lo, hi);
    } else {
        *lo = e->claim_lo;
        *hi = e->claim_hi;
    }
}

/* The parts of [lo, hi) (inside e's claim) on the claim's partial pages, which no protection
   watches: [lo, *head) and [*tail, hi), either maybe empty; [*head, *tail) lies on whole
   pages. None for a private claim, or without the safety net. */
static void unguarded_parts(const entry *e, uintptr_t lo, uintptr_t hi, uintptr_t *head,
                            uintptr_t *tail) {
    if (!idiom__guard_enabled() || e->private_pages) {
        *head = lo;
        *tail = hi;
        return;
    }
    uintptr_t from = 0;
    uintptr_t to = 0;
    idiom__guard_interior(e->claim_lo, e->claim_hi, &from, &to);
    *head = from < lo ? lo : from > hi ? hi : from;
    *tail = to < *head ? *head : to > hi ? hi : to;
}

static pthread_mutex_t resident_mutex = PTHREAD_MUTEX_INITIALIZER;
static entry *entries;
/* Read without the lock by idiom_host_access's fast path, and by the rewritten program's
   inline form of it (mappers/residency/host_fast.py): exported. */
atomic_int idiom_device_entries;
static uint64_t resident_bytes;
static uint64_t generations;
static uint64_t entry_ids;
static atomic_int switched_on;
/* The thread holding resident_mutex, so that the fault handler can tell a fault of the
   runtime itself (a bug: it must never touch a protected page) from one of the program. */
static atomic_int lock_held;
static pthread_t lock_owner;

void idiom_residency_on(void) {
    atomic_store(&switched_on, 1);
}

int idiom__resident_on(void) {
    if (!atomic_load(&switched_on)) {
        return 0;
    }
    const char *text = getenv("IDIOM_RESIDENT");
    return text == NULL || text[0] != '0' || text[1] != '\0';
}

void idiom__resident_lock(void) {
    pthread_mutex_lock(&resident_mutex);
    lock_owner = pthread_self();
    atomic_store(&lock_held, 1);
}

/* The entries' spans as of the last unlock, so that a host access whose bytes no device copy
   holds returns without the lock: once some array stays on the device, host code touching
   the others (NAS BT's block solvers, which bring back each 5x5 block they read) calls in
   hundreds of millions of times and finds nothing. Published as a seqlock (odd while being
   written); every change of the entries happens under the lock, so the spans seen between
   two unlocks are the entries'. Past SPANS entries the lock is always taken. */
#define SPANS 32
static atomic_uint spans_seq;
static atomic_int spans_count; /* -1: more than SPANS entries */
static _Atomic uintptr_t spans_lo[SPANS];
static _Atomic uintptr_t spans_hi[SPANS];

static void publish_spans(void) {
    unsigned seq = atomic_load_explicit(&spans_seq, memory_order_relaxed);
    atomic_store_explicit(&spans_seq, seq + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    int count = 0;
    for (const entry *e = entries; e != NULL; e = e->next, count++) {
        if (count == SPANS) {
            count = -1;
            break;
        }
        uintptr_t lo = 0;
        uintptr_t hi = 0;
        span_of(e, &lo, &hi);
        atomic_store_explicit(&spans_lo[count], lo, memory_order_relaxed);
        atomic_store_explicit(&spans_hi[count], hi, memory_order_relaxed);
    }
    atomic_store_explicit(&spans_count, count, memory_order_relaxed);
    atomic_store_explicit(&spans_seq, seq + 2, memory_order_release);
}

/* No entry overlaps [lo, hi), by spans read whole (else: maybe one does). */
static int spans_miss(uintptr_t lo, uintptr_t hi) {
    unsigned seq = atomic_load_explicit(&spans_seq, memory_order_acquire);
    int count = atomic_load_explicit(&spans_count, memory_order_relaxed);
    if ((seq & 1U) != 0 || count < 0) {
        return 0;
    }
    int miss = 1;
    for (int i = 0; i < count && miss; i++) {
        uintptr_t span_lo = atomic_load_explicit(&spans_lo[i], memory_order_relaxed);
        uintptr_t span_hi = atomic_load_explicit(&spans_hi[i], memory_order_relaxed);
        miss = !(span_lo < hi && lo < span_hi);
    }
    atomic_thread_fence(memory_order_acquire);
    return miss && atomic_load_explicit(&spans_seq, memory_order_relaxed) == seq;
}

void idiom__resident_unlock(void) {
    publish_spans();
    atomic_store(&lock_held, 0);
    pthread_mutex_unlock(&resident_mutex);
}

uint64_t idiom__resident_generation(void) {
    return ++generations;
}

/* Copies back the entry's newer bytes, releases its buffer and unlinks it. */
static void forget_edges(entry *e);

/* The device holds the only copy of some of the program's results and they cannot reach the
   host: going on would print wrong answers, so the program stops. */
static _Noreturn void results_lost(const char *what, cl_int err) {
    fprintf(stderr, "idiom: %s (OpenCL error %d); the program's results are lost: stopping\n",
            what, (int)err);
    abort();
}

static cl_int drop(entry **link, idiom_traffic *traffic) {
    entry *e = *link;
    forget_edges(e);
    cl_int err = CL_SUCCESS;
    if (set_guard(e, GUARD_OFF) != 0) {
        results_lost("cannot lift the protection of the bytes a device holds", 0);
    } else if (e->newer_lo < e->newer_hi) {
        double start = idiom__now();
        size_t bytes = e->newer_hi - e->newer_lo;
        err = clEnqueueReadBuffer(e->queue, e->mem, CL_TRUE, e->newer_lo - e->lo, bytes,
                                  (void *)e->newer_lo, 0, NULL, NULL);
        traffic->seconds += idiom__now() - start;
        traffic->downloaded += (int64_t)bytes;
        if (err != CL_SUCCESS) { /* a lost device, or a kernel that failed after its
                                    launch returned (asynchronous dispatch) */
            results_lost("OpenCL error copying device results back to the host", err);
        }
    }
    clReleaseMemObject(e->mem);
    resident_bytes -= e->hi - e->lo;
    *link = e->next;
    free(e);
    atomic_fetch_sub(&idiom_device_entries, 1);
    return err;
}

cl_int idiom__resident_evict(uintptr_t lo, uintptr_t hi, idiom_traffic *traffic) {
    cl_int first = CL_SUCCESS;
    for (entry **link = &entries; *link != NULL;) {
        entry *e = *link;
        uintptr_t span_lo = 0;
        uintptr_t span_hi = 0;
        span_of(e, &span_lo, &span_hi);
        if (span_lo < hi && lo < span_hi) {
            cl_int err = drop(link, traffic);
            first = first != CL_SUCCESS ? first : err;
        } else {
            link = &e->next;
        }
    }
    return first;
}

static entry *holding(int slot, uintptr_t lo, uintptr_t hi) {
    for (entry *e = entries; e != NULL; e = e->next) {
        if (e->slot == slot && e->claim_lo <= lo && hi <= e->claim_hi) {
            return e;
        }
    }
    return NULL;
}

/* Past ENTRIES_MAX entries, all but the ENTRIES_KEEP newest are evicted (those this launch
   uses excepted): every lookup walks the list, and a program that launches per row of a grid
   (NAS MG) leaves an entry per row of the arrays it only reads, thousands, which made each
   launch walk them all. Evicting copies back what a device wrote: it costs transfers, never
   results. */
#define ENTRIES_MAX 512
#define ENTRIES_KEEP 256

static cl_int trim(uint64_t generation, idiom_traffic *traffic) {
    if (atomic_load(&idiom_device_entries) <= ENTRIES_MAX) {
        return CL_SUCCESS;
    }
    cl_int first = CL_SUCCESS;
    int kept = 0;
    for (entry **link = &entries; *link != NULL;) { /* newest first */
        if (kept >= ENTRIES_KEEP && (*link)->generation != generation) {
            cl_int err = drop(link, traffic);
            first = first != CL_SUCCESS ? first : err;
        } else {
            kept++;
            link = &(*link)->next;
        }
    }
    return first;
}

/* Evicts entries not used by this launch until `bytes` more fit in the budget. */
static cl_int make_room(uint64_t bytes, uint64_t budget, uint64_t generation,
                        idiom_traffic *traffic) {
    cl_int first = CL_SUCCESS;
    for (entry **link = &entries; *link != NULL && resident_bytes + bytes > budget;) {
        if ((*link)->generation != generation) {
            cl_int err = drop(link, traffic);
            first = first != CL_SUCCESS ? first : err;
        } else {
            link = &(*link)->next;
        }
    }
    if (first == CL_SUCCESS && resident_bytes + bytes > budget) {
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    }
    return first;
}

/* Private entry `e` is about to share a page with another claim: it becomes an entry like any
   other, its partial pages unprotected and holding the device's newer bytes again (the
   invariant of edges: never newer on the device). 0, or -1 when it must be dropped instead. */
static int demote(entry *e, idiom_traffic *traffic) {
    if (set_guard(e, GUARD_OFF) != 0) {
        return -1;
    }
    e->private_pages = 0;
    if (e->newer_lo < e->newer_hi) {
        uintptr_t head = 0;
        uintptr_t tail = 0;
        unguarded_parts(e, e->newer_lo, e->newer_hi, &head, &tail);
        cl_int err = copy_back(e, e->newer_lo, head, traffic);
        if (err == CL_SUCCESS) {
            err = copy_back(e, tail, e->newer_hi, traffic);
        }
        if (err == CL_SUCCESS) {
            err = idiom__resident_settle();
        }
        if (err != CL_SUCCESS) {
            return -1;
        }
        e->newer_lo = head < tail ? head : e->lo;
        e->newer_hi = head < tail ? tail : e->lo;
    }
    free(e->edges); /* sized for no edges: made again for the edges it has now */
    e->edges = NULL;
    snapshot_edges(e);
    return 0;
}

/* Before an entry claiming [lo, hi) is made: private entries sharing one of its pages are
   demoted (dropped where that fails), and the answer is whether the new claim may be private
   itself (no other claim on its pages, and a block of its own). */
static int settle_neighbours(uintptr_t lo, uintptr_t hi, idiom_traffic *traffic,
                             cl_int *err) {
    if (!idiom__guard_enabled()) {
        return 0;
    }
    uintptr_t pages_lo = 0;
    uintptr_t pages_hi = 0;
    idiom__guard_pages(lo, hi, &pages_lo, &pages_hi);
    int alone = 1;
    for (entry **link = &entries; *link != NULL;) {
        entry *e = *link;
        uintptr_t from = 0;
        uintptr_t to = 0;
        idiom__guard_pages(e->claim_lo, e->claim_hi, &from, &to);
        if (!(from < pages_hi && pages_lo < to)) {
            link = &e->next;
            continue;
        }
        alone = 0;
        if (e->private_pages && demote(e, traffic) != 0) {
            cl_int dropped = drop(link, traffic);
            *err = *err != CL_SUCCESS ? *err : dropped;
            continue;
        }
        link = &e->next;
    }
    return alone && idiom__guard_private(lo, hi);
}

/* Unlinks the entries of `slot` inside [lo, hi) into `taken` (sorted by address), when every
   entry overlapping that range is one of them; returns how many, or -1 (none unlinked). */
static int take_inside(int slot, uintptr_t lo, uintptr_t hi, entry **taken, int room,
                       idiom_traffic *traffic) {
    int count = 0;
    for (entry *e = entries; e != NULL; e = e->next) {
        if (e->claim_lo < hi && lo < e->claim_hi) {
            if (e->slot != slot || e->claim_lo < lo || e->claim_hi > hi || count == room) {
                return -1;
            }
            count++;
        }
    }
    count = 0;
    for (entry **link = &entries; *link != NULL;) {
        entry *e = *link;
        if (e->claim_lo < hi && lo < e->claim_hi) {
            *link = e->next;
            int at = count++;
            while (at > 0 && taken[at - 1]->claim_lo > e->claim_lo) { /* a few entries */
                taken[at] = taken[at - 1];
                at--;
            }
            taken[at] = e;
            /* The merged entry's edges may be this one's partial pages: never newer there.
               Failing that, its protection is lifted below, and its newer partial pages go
               back with the rest when the merged entry is dropped. */
            if (e->private_pages) {
                demote(e, traffic);
            }
            set_guard(e, GUARD_OFF); /* the merged entry is guarded after the launch */
            resident_bytes -= e->hi - e->lo;
            atomic_fetch_sub(&idiom_device_entries, 1);
        } else {
            link = &e->next;
        }
    }
    return count;
}

/* Fills the new buffer `mem` holding host bytes [lo, hi): the claims of the entries `taken`
   (inside it, sorted, not overlapping) are copied on the device, newer bytes included; the
   rest comes from the host. */
static cl_int fill(cl_command_queue queue, cl_mem mem, uintptr_t lo, uintptr_t hi,
                   entry **taken, int count, idiom_traffic *traffic) {
    cl_int err = CL_SUCCESS;
    uintptr_t at = lo;
    double start = idiom__now();
    for (int i = 0; i <= count && err == CL_SUCCESS; i++) {
        uintptr_t gap_end = i < count ? taken[i]->claim_lo : hi;
        if (at < gap_end) {
            /* Not waited for: the launch waits for its kernel, queued after it. */
            err = clEnqueueWriteBuffer(queue, mem, CL_FALSE, at - lo, gap_end - at,
                                       (const void *)at, 0, NULL, NULL);
            traffic->uploaded += (int64_t)(gap_end - at);
        }
        if (i < count && err == CL_SUCCESS) {
            entry *e = taken[i];
            err = clEnqueueCopyBuffer(queue, e->mem, mem, e->claim_lo - e->lo, e->claim_lo - lo,
                                      e->claim_hi - e->claim_lo, 0, NULL, NULL);
            at = e->claim_hi;
        }
    }
    traffic->seconds += idiom__now() - start;
    return err;
}

/* Puts entries taken out by take_inside back (when the merged buffer could not be made). */
static void put_back(entry **taken, int count) {
    for (int i = 0; i < count; i++) {
        taken[i]->next = entries;
        entries = taken[i];
        resident_bytes += taken[i]->hi - taken[i]->lo;
        atomic_fetch_add(&idiom_device_entries, 1);
    }
}

#define MERGED_MAX 16

cl_int idiom__resident_acquire(int slot, cl_context context, cl_command_queue queue,
                               uint64_t budget, uint64_t generation, uintptr_t lo, uintptr_t hi,
                               int reads, idiom_traffic *traffic) {
    entry *found = holding(slot, lo, hi);
    if (found != NULL) {
        found->generation = generation;
        /* The host may have written the partial pages since: no protection tells. */
        return reads ? upload_edges(found, traffic) : CL_SUCCESS;
    }
    /* Entries whose claims overlap are merged into the new one: grow the claim until no
       entry's claim overlaps it without being inside it. */
    uintptr_t claim_lo = lo;
    uintptr_t claim_hi = hi;
    for (int grown = 1; grown;) {
        grown = 0;
        for (entry *e = entries; e != NULL; e = e->next) {
            if (e->claim_lo < claim_hi && claim_lo < e->claim_hi &&
                (e->claim_lo < claim_lo || e->claim_hi > claim_hi)) {
                claim_lo = e->claim_lo < claim_lo ? e->claim_lo : claim_lo;
                claim_hi = e->claim_hi > claim_hi ? e->claim_hi : claim_hi;
                grown = 1;
            }
        }
    }
    uintptr_t new_lo = claim_lo & ~(ALIGN - 1);
    uintptr_t new_hi = (claim_hi + ALIGN - 1) & ~(ALIGN - 1);
    /* Entries of this device inside the claim are copied on the device, without going
       through the host; any other overlap (another device) is evicted first. */
    entry *taken[MERGED_MAX];
    int count = take_inside(slot, claim_lo, claim_hi, taken, MERGED_MAX, traffic);
    cl_int err = CL_SUCCESS;
    if (count < 0) {
        count = 0;
        err = idiom__resident_evict(claim_lo, claim_hi, traffic);
    }
    int private_pages = err == CL_SUCCESS ? settle_neighbours(claim_lo, claim_hi, traffic, &err)
                                          : 0;
    size_t bytes = new_hi - new_lo;
    if (err == CL_SUCCESS) {
        err = trim(generation, traffic);
    }
    if (err == CL_SUCCESS) {
        err = make_room(bytes, budget, generation, traffic);
    }
    entry *e = err == CL_SUCCESS ? calloc(1, sizeof *e) : NULL;
    if (err == CL_SUCCESS && e == NULL) {
        err = CL_OUT_OF_HOST_MEMORY;
    }
    if (e != NULL) {
        e->mem = clCreateBuffer(context, CL_MEM_READ_WRITE, idiom__whole_words(bytes), NULL, &err);
        if (e->mem != NULL && err == CL_SUCCESS) {
            err = fill(queue, e->mem, new_lo, new_hi, taken, count, traffic);
        }
    }
    if (err != CL_SUCCESS || e == NULL || e->mem == NULL) {
        if (e != NULL && e->mem != NULL) {
            clReleaseMemObject(e->mem);
        }
        free(e);
        put_back(taken, count); /* their newer bytes are still theirs to copy back */
        return err != CL_SUCCESS ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE;
    }
    e->slot = slot;
    e->queue = queue;
    e->lo = new_lo;
    e->hi = new_hi;
    e->claim_lo = claim_lo;
    e->claim_hi = claim_hi;
    e->newer_lo = e->newer_hi = new_lo;
    for (int i = 0; i < count; i++) { /* the merged entries' newer bytes stay newer */
        entry *old = taken[i];
        if (old->newer_lo < old->newer_hi) {
            int empty = e->newer_lo >= e->newer_hi;
            e->newer_lo = empty || old->newer_lo < e->newer_lo ? old->newer_lo : e->newer_lo;
            e->newer_hi = empty || old->newer_hi > e->newer_hi ? old->newer_hi : e->newer_hi;
        }
        clReleaseMemObject(old->mem); /* freed once the copy that reads it is done */
        forget_edges(old);
        free(old);
    }
    idiom__trace("device copy of %zu bytes at %p (%d merged on the device)",
                 (size_t)(claim_hi - claim_lo), (void *)claim_lo, count);
    e->generation = generation;
    e->id = ++entry_ids;
    e->private_pages = private_pages;
    /* Made from the host's bytes (and the device's, which are never newer on the partial
       pages: those go back at once): host and device agree on the edges. */
    snapshot_edges(e);
    e->next = entries;
    entries = e;
    resident_bytes += bytes;
    atomic_fetch_add(&idiom_device_entries, 1);
    return CL_SUCCESS;
}

cl_mem idiom__resident_find(int slot, uintptr_t lo, uintptr_t hi, size_t *offset) {
    entry *e = holding(slot, lo, hi);
    if (e == NULL) {
        return NULL;
    }
    *offset = lo - e->lo;
    return e->mem;
}

static uintptr_t overlap(uintptr_t lo, uintptr_t hi, uintptr_t other_lo, uintptr_t other_hi) {
    uintptr_t from = lo > other_lo ? lo : other_lo;
    uintptr_t to = hi < other_hi ? hi : other_hi;
    return from < to ? to - from : 0;
}

/* [a, b) clipped to [lo, hi), as a pair (empty: both lo). */
static void clip(uintptr_t a, uintptr_t b, uintptr_t lo, uintptr_t hi, uintptr_t out[2]) {
    out[0] = a > lo ? a : lo;
    out[1] = b < hi ? b : hi;
    if (out[0] >= out[1]) {
        out[0] = out[1] = lo;
    }
}

int idiom__resident_stamp(int slot, uintptr_t lo, uintptr_t hi, idiom_stamp *stamp) {
    entry *e = holding(slot, lo, hi);
    if (e == NULL) {
        return 0;
    }
    stamp->id = e->id;
    stamp->version = e->version;
    uintptr_t from = e->claim_lo;
    uintptr_t to = e->claim_lo; /* without the safety net no page is guarded: no edges */
    if (idiom__guard_enabled()) {
        edge_ranges(e, &from, &to);
    }
    clip(e->claim_lo, from, lo, hi, stamp->edges[0]);
    clip(to, e->claim_hi, lo, hi, stamp->edges[1]);
    return 1;
}

void idiom__resident_coverage(int slot, uintptr_t lo, uintptr_t hi, int64_t *held,
                              int64_t *newer) {
    *held = 0;
    *newer = 0;
    for (entry *e = entries; e != NULL; e = e->next) {
        *newer += (int64_t)overlap(lo, hi, e->newer_lo, e->newer_hi);
        if (e->slot == slot) {
            *held += (int64_t)overlap(lo, hi, e->claim_lo, e->claim_hi);
        }
    }
}

cl_int idiom__resident_refresh(uintptr_t lo, uintptr_t hi, idiom_traffic *traffic) {
    cl_int first = CL_SUCCESS;
    for (entry *e = entries; e != NULL; e = e->next) {
        uintptr_t from = e->claim_lo > lo ? e->claim_lo : lo;
        uintptr_t to = e->claim_hi < hi ? e->claim_hi : hi;
        if (from < to) {
            e->version++;
            double start = idiom__now();
            cl_int err = clEnqueueWriteBuffer(e->queue, e->mem, CL_TRUE, from - e->lo, to - from,
                                              (const void *)from, 0, NULL, NULL);
            traffic->seconds += idiom__now() - start;
            traffic->uploaded += (int64_t)(to - from);
            first = first != CL_SUCCESS ? first : err;
        }
    }
    return first;
}

int idiom__resident_wrote_copies(int slot, uintptr_t lo, uintptr_t hi) {
    const entry *e = holding(slot, lo, hi);
    if (e == NULL || lo >= hi) {
        return 0;
    }
    uintptr_t head = 0;
    uintptr_t tail = 0;
    unguarded_parts(e, lo, hi, &head, &tail);
    return lo < head || tail < hi;
}

cl_int idiom__resident_wrote(int slot, uintptr_t lo, uintptr_t hi, idiom_traffic *traffic) {
    entry *e = holding(slot, lo, hi);
    if (e == NULL || lo >= hi) {
        return CL_SUCCESS;
    }
    e->version++;
    if (idiom__guard_enabled() && !e->private_pages) {
        /* the partial pages go back now; the whole ones stay */
        uintptr_t head = 0;
        uintptr_t tail = 0;
        unguarded_parts(e, lo, hi, &head, &tail);
        cl_int err = copy_back(e, lo, head, traffic);
        if (err == CL_SUCCESS) {
            err = copy_back(e, tail, hi, traffic);
        }
        if (lo < head || tail < hi) { /* else the edges still hold what both last held */
            edges_copied_back(e);
        }
        lo = head;
        hi = tail;
        if (err != CL_SUCCESS || lo >= hi) {
            return err;
        }
    }
    if (e->newer_lo >= e->newer_hi) {
        e->newer_lo = lo;
        e->newer_hi = hi;
    } else {
        e->newer_lo = lo < e->newer_lo ? lo : e->newer_lo;
        e->newer_hi = hi > e->newer_hi ? hi : e->newer_hi;
    }
    return CL_SUCCESS;
}

/* ---- the safety net: whole pages protected, partial ones kept equal (idiom_guard.c) ---- */

static int set_guard(entry *e, int guard) {
    if (e->guard == guard) {
        return 0;
    }
    uintptr_t from = 0;
    uintptr_t to = 0;
    guarded_pages(e, &from, &to);
    if (idiom__guard_protect(from, to, guard != GUARD_NONE, guard == GUARD_OFF) != 0) {
        return -1;
    }
    e->guard = guard;
    return 0;
}

/* The queue with reads not yet waited for (copy_back): each blocking transfer costs a
   round trip to the device's threads, so a launch's few small copies are waited for once,
   by idiom__resident_settle, before the launch returns. */
static cl_command_queue unsettled = NULL;

cl_int idiom__resident_settle(void) {
    cl_command_queue queue = unsettled;
    unsettled = NULL;
    cl_int err = queue != NULL ? clFinish(queue) : CL_SUCCESS;
    take_pending_edges(err == CL_SUCCESS);
    return err;
}

/* Queues the copy of the device's bytes [lo, hi) of the entry to the host (nothing when
   empty); idiom__resident_settle waits for it. */
static cl_int copy_back(entry *e, uintptr_t lo, uintptr_t hi, idiom_traffic *traffic) {
    if (lo >= hi) {
        return CL_SUCCESS;
    }
    if (unsettled != NULL && unsettled != e->queue) {
        cl_int err = idiom__resident_settle();
        if (err != CL_SUCCESS) {
            return err;
        }
    }
    unsettled = e->queue;
    double start = idiom__now();
    cl_int err = clEnqueueReadBuffer(e->queue, e->mem, CL_FALSE, lo - e->lo, hi - lo, (void *)lo,
                                     0, NULL, NULL);
    traffic->seconds += idiom__now() - start;
    traffic->downloaded += (int64_t)(hi - lo);
    return err;
}

/* Queues the upload of the host's bytes [lo, hi) into the entry (nothing when empty),
   before a launch's kernel: from a copy of the runtime's own where they are few (a partial
   page), so that the launch need not wait for the upload before it returns; else from the
   program's memory, which the launch waits for. */
static cl_int copy_up(entry *e, uintptr_t lo, uintptr_t hi, idiom_traffic *traffic) {
    if (lo >= hi) {
        return CL_SUCCESS;
    }
    double start = idiom__now();
    const void *from = idiom__stage(e->slot, e->queue, (const void *)lo, hi - lo);
    cl_int err = clEnqueueWriteBuffer(e->queue, e->mem, CL_FALSE, lo - e->lo, hi - lo,
                                      from != NULL ? from : (const void *)lo, 0, NULL, NULL);
    traffic->seconds += idiom__now() - start;
    traffic->uploaded += (int64_t)(hi - lo);
    traffic->staged += from != NULL ? (int64_t)(hi - lo) : 0;
    return err;
}

/* The claim's partial pages: [claim_lo, *from) and [*to, claim_hi), either maybe empty. */
static void edge_ranges(const entry *e, uintptr_t *from, uintptr_t *to) {
    if (e->private_pages) { /* no partial page is left unprotected */
        *from = e->claim_lo;
        *to = e->claim_hi;
        return;
    }
    idiom__guard_interior(e->claim_lo, e->claim_hi, from, to);
    if (*from >= *to) { /* no whole page: the claim is all edge */
        *from = *to = e->claim_hi;
    }
}

static size_t edge_bytes(const entry *e, uintptr_t from, uintptr_t to) {
    return (from - e->claim_lo) + (e->claim_hi - to);
}

/* The host's bytes on the edges now equal the snapshot. */
static int edges_unchanged(const entry *e, uintptr_t from, uintptr_t to) {
    size_t head = from - e->claim_lo;
    return e->edges != NULL && memcmp(e->edges, (const void *)e->claim_lo, head) == 0 &&
           memcmp(e->edges + head, (const void *)to, e->claim_hi - to) == 0;
}

/* Host and device hold the same bytes on the edges now: remember them. */
static void snapshot_edges(entry *e) {
    if (!idiom__guard_enabled()) { /* nothing to compare: upload_edges sends nothing */
        return;
    }
    uintptr_t from = 0;
    uintptr_t to = 0;
    edge_ranges(e, &from, &to);
    size_t head = from - e->claim_lo;
    if (e->edges == NULL) {
        e->edges = malloc(edge_bytes(e, from, to) + 1);
    }
    if (e->edges != NULL) {
        memcpy(e->edges, (const void *)e->claim_lo, head);
        memcpy(e->edges + head, (const void *)to, e->claim_hi - to);
    }
}

/* Entries whose edges are being copied back, snapshot once the copies are waited for. */
static entry *pending_edges;

static void forget_edges(entry *e) {
    free(e->edges);
    e->edges = NULL;
    for (entry **link = &pending_edges; e->edges_pending && *link != NULL;
         link = &(*link)->next_pending) {
        if (*link == e) {
            *link = e->next_pending;
            break;
        }
    }
    e->edges_pending = 0;
}

static void edges_copied_back(entry *e) {
    free(e->edges); /* unknown until the copies land */
    e->edges = NULL;
    if (!e->edges_pending) {
        e->edges_pending = 1;
        e->next_pending = pending_edges;
        pending_edges = e;
    }
}

static void take_pending_edges(int landed) {
    for (entry *e = pending_edges; e != NULL; e = e->next_pending) {
        if (landed) {
            snapshot_edges(e);
        }
        e->edges_pending = 0;
    }
    pending_edges = NULL;
}

/* The claim's bytes on its partial first and last pages, from the host: no protection tells
   whether the host wrote them since the last launch. Bytes equal to those host and device
   last both held are not sent again (an array only read, or written by the last kernel and
   copied back, keeps its edges). */
static cl_int upload_edges(entry *e, idiom_traffic *traffic) {
    if (!idiom__guard_enabled()) {
        return CL_SUCCESS;
    }
    uintptr_t from = 0;
    uintptr_t to = 0;
    edge_ranges(e, &from, &to);
    if (!e->edges_pending && edges_unchanged(e, from, to)) {
        return CL_SUCCESS;
    }
    cl_int err = copy_up(e, e->claim_lo, from, traffic);
    err = err == CL_SUCCESS ? copy_up(e, to, e->claim_hi, traffic) : err;
    if (err == CL_SUCCESS && !e->edges_pending) {
        snapshot_edges(e); /* what was just queued is what the host holds now */
    }
    return err;
}

cl_int idiom__resident_guard(idiom_traffic *traffic) {
    if (!idiom__guard_enabled()) {
        return CL_SUCCESS;
    }
    cl_int first = CL_SUCCESS;
    for (entry **link = &entries; *link != NULL;) {
        entry *e = *link;
        int wanted = e->newer_lo < e->newer_hi ? GUARD_NONE : GUARD_READ;
        if (set_guard(e, wanted) != 0) {
            cl_int err = drop(link, traffic); /* unprotectable: no copy may stay */
            first = first != CL_SUCCESS ? first : err;
        } else {
            link = &e->next;
        }
    }
    return first;
}

int idiom__resident_fault(uintptr_t address) {
    idiom__resident_lock();
    int found = 0;
    idiom_traffic traffic = {0.0, 0, 0, 0};
    for (entry **link = &entries; *link != NULL; link = &(*link)->next) {
        entry *e = *link;
        uintptr_t from = 0;
        uintptr_t to = 0;
        guarded_pages(e, &from, &to);
        if (e->guard != GUARD_OFF && from <= address && address < to) {
            drop(link, &traffic);
            found = 1;
            break;
        }
    }
    idiom__resident_unlock();
    if (!found) {
        return 0;
    }
    const char *stats = idiom__stats_path();
    if (stats != NULL) { /* program code faulted, not the runtime nor libc: stdio is free */
        idiom_json j;
        idiom__json_begin(&j, "host_fault", IDIOM_DONE, traffic.seconds);
        idiom__json_int(&j, "download_bytes", traffic.downloaded);
        idiom__stats_emit(&j, stats);
    }
    idiom__trace("host access the compiler did not foresee at %p: %lld bytes copied back",
                 (void *)address, (long long)traffic.downloaded);
    return 1;
}

int idiom__resident_lock_is_mine(void) {
    return atomic_load(&lock_held) && pthread_equal(lock_owner, pthread_self());
}

/* Evicts the entries overlapping [lo, hi); reports when there were any. */
static void host_access(uintptr_t lo, uintptr_t hi) {
    if (atomic_load(&idiom_device_entries) == 0) {
        return; /* the common case: nothing on a device */
    }
    if (spans_miss(lo, hi)) {
        return; /* copies of other bytes only */
    }
    double start = idiom__now();
    idiom_traffic traffic = {0.0, 0, 0, 0};
    idiom__resident_lock();
    int before = atomic_load(&idiom_device_entries);
    cl_int err = idiom__resident_evict(lo, hi, &traffic);
    int had = before - atomic_load(&idiom_device_entries);
    idiom__resident_unlock();
    if (had == 0) {
        return; /* copies elsewhere: the environment is read only when there is news */
    }
    const char *stats = idiom__stats_path();
    if (stats != NULL) {
        idiom_json j;
        idiom__json_begin(&j, "host_access", err == CL_SUCCESS ? IDIOM_DONE : IDIOM_FAILED,
                          idiom__now() - start);
        idiom__json_int(&j, "entries", had);
        idiom__json_int(&j, "download_bytes", traffic.downloaded);
        idiom__json_seconds(&j, "transfer_seconds", traffic.seconds);
        idiom__stats_emit(&j, stats);
    }
    idiom__trace("host access: %d device cop%s dropped, %lld bytes copied back", had,
                 had == 1 ? "y" : "ies", (long long)traffic.downloaded);
}

void idiom_host_access(void) {
    host_access(0, UINTPTR_MAX);
}

void idiom_host_access_at(const void *address, int64_t bytes) {
    uintptr_t lo = (uintptr_t)address;
    host_access(lo, lo + (uintptr_t)(bytes > 0 ? bytes : 1));
}

int32_t idiom_device_copies(void) {
    return (int32_t)atomic_load(&idiom_device_entries);
}

/* ---- reuse between launches: kernel objects and scratch buffers --------------------------
 *
 * Creating a kernel object and a device buffer costs tens to hundreds of microseconds on a
 * GPU, as much as a whole small kernel: an iterative program launching thousands of times
 * would pay it at every call. Both are kept (under the residency lock, which every launch
 * holds) and reused: kernels per (program, name), scratch buffers by exact size, up to
 * POOL_BYTES in all. */


#define POOL_SLOTS 64
#define POOL_BYTES ((size_t)256 << 20)

/* The value a kernel's scalar argument was last set to (size 0: none known). A kernel object
   keeps its arguments from one launch to the next, so a launch sets only the scalars that
   changed: a generated stencil kernel takes 40 or more (its sizes and offsets), each
   clSetKernelArg a host call. Buffers are always set: a released buffer's handle may come
   back for another buffer, which the device knows by another address. */
#define MEMO_BYTES 16

typedef struct {
    size_t size;
    unsigned char bytes[MEMO_BYTES];
} scalar_memo;

typedef struct kernel_entry {
    struct kernel_entry *next;
    cl_program program;
    char *name;
    cl_kernel kernel;
    cl_uint arguments;  /* its parameters' count, asked once */
    scalar_memo *memo;  /* one per parameter, or NULL */
} kernel_entry;

typedef struct {
    int slot;
    size_t bytes;
    cl_mem mem;
} pooled;

static kernel_entry *kernels;
static kernel_entry *launching; /* the entry idiom__kernel_for gave last: its arguments follow */
static pooled pool[POOL_SLOTS];
static int pool_count;
static size_t pool_bytes;

cl_kernel idiom__kernel_for(cl_program program, const char *name, cl_uint *arguments,
                            cl_int *err) {
    for (kernel_entry *e = kernels; e != NULL; e = e->next) {
        if (e->program == program && strcmp(e->name, name) == 0) {
            *err = CL_SUCCESS;
            *arguments = e->arguments;
            launching = e;
            return e->kernel;
        }
    }
    cl_kernel kernel = clCreateKernel(program, name, err);
    if (kernel == NULL || *err != CL_SUCCESS) {
        return NULL;
    }
    *err = clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof *arguments, arguments, NULL);
    if (*err != CL_SUCCESS) {
        clReleaseKernel(kernel);
        return NULL;
    }
    kernel_entry *e = calloc(1, sizeof *e);
    char *copy = strdup(name);
    if (e == NULL || copy == NULL) {
        free(e);
        free(copy);
        clReleaseKernel(kernel);
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    e->program = program;
    e->name = copy;
    e->kernel = kernel;
    e->arguments = *arguments;
    e->memo = calloc(*arguments > 0 ? *arguments : 1, sizeof *e->memo); /* NULL: no memo */
    e->next = kernels;
    kernels = e;
    launching = e;
    return kernel;
}

static int memo_enabled(void) {
    static int enabled = -1; /* IDIOM_ARG_MEMO=0 sets every argument at every launch */
    if (enabled < 0) {
        enabled = idiom__env_int("IDIOM_ARG_MEMO", 1) != 0;
    }
    return enabled;
}

/* The memo of argument `index` of the kernel being launched (a launch sets its arguments
   right after idiom__kernel_for found its kernel); NULL for any other kernel: set always. */
static scalar_memo *memo_of(cl_kernel kernel, cl_uint index) {
    kernel_entry *e = launching;
    if (e == NULL || e->kernel != kernel || e->memo == NULL || index >= e->arguments) {
        return NULL;
    }
    return &e->memo[index];
}

cl_int idiom__set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value,
                      int scalar) {
    scalar_memo *memo = memo_of(kernel, index);
    int kept = scalar && value != NULL && size <= MEMO_BYTES && memo_enabled();
    if (kept && memo != NULL && memo->size == size && memcmp(memo->bytes, value, size) == 0) {
        return CL_SUCCESS;
    }
    cl_int err = clSetKernelArg(kernel, index, size, value);
    if (memo != NULL) {
        memo->size = kept && err == CL_SUCCESS ? size : 0;
        if (memo->size > 0) {
            memcpy(memo->bytes, value, size);
        }
    }
    return err;
}

cl_mem idiom__pool_take(int slot, cl_context context, size_t bytes, cl_int *err) {
    for (int i = 0; i < pool_count; i++) {
        if (pool[i].slot == slot && pool[i].bytes == bytes) {
            cl_mem mem = pool[i].mem;
            pool_bytes -= bytes;
            pool[i] = pool[--pool_count];
            *err = CL_SUCCESS;
            return mem;
        }
    }
    return clCreateBuffer(context, CL_MEM_READ_WRITE, idiom__whole_words(bytes), NULL, err);
}

void idiom__pool_give(int slot, cl_mem mem, size_t bytes) {
    while (pool_count > 0 && (pool_count == POOL_SLOTS || pool_bytes + bytes > POOL_BYTES)) {
        clReleaseMemObject(pool[0].mem); /* the oldest goes */
        pool_bytes -= pool[0].bytes;
        pool[0] = pool[--pool_count];
    }
    if (bytes > POOL_BYTES) {
        clReleaseMemObject(mem);
        return;
    }
    pool[pool_count++] = (pooled){slot, bytes, mem};
    pool_bytes += bytes;
}
