/* Values computed from memory, remembered while no byte of that memory is written.
 *
 * A dense BLAS call first bounds its sums (idiom_blas.c: no order of them may overflow), and
 * the bound of a GEMV reads all of A, as much memory as the product itself. A solver calls
 * its products again and again on one matrix; the bound of an unchanged A is the bound of
 * the last call. So the bound of a large read-only operand is remembered with the bytes it
 * was read from, and those bytes are watched for writes by the kernel itself:
 *
 * - the whole pages of the range are registered with a userfaultfd in asynchronous
 *   write-protect mode (Linux 6.7: UFFD_FEATURE_WP_ASYNC) and write-protected. A write to one,
 *   by the program, a library, another thread or a system call (read(2) into the array),
 *   is let through by the kernel, which only clears the page's protection: no signal, no
 *   failed system call, nothing the program can see but a fault's time on the page's first
 *   write. PAGEMAP_SCAN then tells whether any page of the range was written since;
 * - the bytes of the range on its first and last partial pages are kept in copies and
 *   compared (the rest of those pages belongs to other objects, whose writes must not
 *   count);
 * - anything unexpected (a kernel without the feature, a range the kernel will not
 *   register, a failed scan, another process: a forked child shares the userfaultfd with
 *   its parent) computes the value afresh. A remembered value is used only when the kernel
 *   says, for every page, that nothing was written since it was protected.
 *
 * A range is watched from the second time it is asked for (a one-off call pays nothing), and
 * no longer once it is found written before two reuses (an operand the program rewrites
 * between calls would pay a fault per page for nothing). Protecting pages again clears
 * what they recorded: every other watched range sharing a page is checked first and, if
 * written, marked stale. The remembered values are bounds on magnitudes: a page whose bytes
 * the kernel drops (madvise) reads as zeros afterwards, which stays under the bound.
 */
#define _GNU_SOURCE /* syscall */

#include "idiom_internal.h"
#include "idiom_watch.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Older headers lack these; the kernel decides at run time. */
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1 << 13)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif
#ifndef PAGEMAP_SCAN
struct page_region {
    uint64_t start, end, categories;
};
struct pm_scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages, category_inverted,
        category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PAGE_IS_WRITTEN (1 << 1)
#define PM_SCAN_CHECK_WPASYNC (1 << 1)
#endif

#define SLOTS 16
#define DEFAULT_MIN_BYTES ((int64_t)256 << 10)

typedef enum { EMPTY, SEEN, ARMED, VOLATILE } watch_state;

typedef struct {
    uintptr_t lo, hi; /* the bytes the value was computed from */
    uint64_t tag;     /* what was computed from them */
    uintptr_t from, to; /* the whole pages registered and protected */
    watch_state state;
    int stale;       /* written or unregistered while another range was protected */
    unsigned reuses; /* since last protected */
    double value;
    unsigned char *edges; /* copies of [lo, from) and [to, hi) */
    uint64_t last_use;
} watched;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static watched slots[SLOTS];
static uint64_t clock_ticks;
static int uffd = -1;
static int pagemap = -1;
static pid_t owner;
static uintptr_t page_bytes;
static atomic_long recalls;

static int scan_written(uintptr_t from, uintptr_t to) {
    struct page_region region;
    struct pm_scan_arg arg;
    memset(&arg, 0, sizeof arg);
    arg.size = sizeof arg;
    arg.flags = PM_SCAN_CHECK_WPASYNC;
    arg.start = from;
    arg.end = to;
    arg.vec = (uintptr_t)&region;
    arg.vec_len = 1;
    arg.max_pages = 1;
    arg.category_mask = PAGE_IS_WRITTEN;
    arg.return_mask = PAGE_IS_WRITTEN;
    /* 0: no page written; an error (a page not registered any more) counts as written */
    return ioctl(pagemap, PAGEMAP_SCAN, &arg) != 0;
}

static int protect(uintptr_t from, uintptr_t to) {
    struct uffdio_register reg = {.range = {from, to - from}, .mode = UFFDIO_REGISTER_MODE_WP};
    struct uffdio_writeprotect wp = {.range = {from, to - from},
                                     .mode = UFFDIO_WRITEPROTECT_MODE_WP};
    return ioctl(uffd, UFFDIO_REGISTER, &reg) == 0 && ioctl(uffd, UFFDIO_WRITEPROTECT, &wp) == 0;
}

/* The kernel watches a test page as described above: protected and clean, then written. */
static int works_on_a_page(void) {
    void *page = aligned_alloc(page_bytes, page_bytes);
    if (page == NULL) {
        return 0;
    }
    memset(page, 1, page_bytes);
    uintptr_t from = (uintptr_t)page;
    int ok = protect(from, from + page_bytes) && !scan_written(from, from + page_bytes);
    ((volatile unsigned char *)page)[0] = 2;
    ok = ok && scan_written(from, from + page_bytes);
    struct uffdio_range range = {from, page_bytes};
    ioctl(uffd, UFFDIO_UNREGISTER, &range);
    free(page);
    return ok;
}

static int open_watch(void) {
    uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (uffd < 0) {
        return 0;
    }
    struct uffdio_api api = {.api = UFFD_API,
                             .features = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED};
    pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (ioctl(uffd, UFFDIO_API, &api) != 0 || pagemap < 0 || !works_on_a_page()) {
        close(uffd);
        if (pagemap >= 0) {
            close(pagemap);
        }
        uffd = pagemap = -1;
        return 0;
    }
    return 1;
}

/* Whether the kernel watches memory for this process; opened when a first range is to be
   watched, so a program that never calls twice on one operand holds no descriptor more. */
static int watch_open(void) {
    static int opened = -1;
    if (opened < 0) {
        opened = open_watch();
        idiom__trace("watching read-only operands for writes: %s",
                     opened ? "userfaultfd (asynchronous write protection)" : "unavailable");
    }
    return opened;
}

/* Whether the table may be used (called with the lock held): not where IDIOM_WATCH=0, nor in
   a forked child, whose table and descriptors are its parent's (the userfaultfd and
   /proc/self/pagemap opened by the parent describe the parent's memory). */
static int table_usable(void) {
    static int allowed = -1;
    if (allowed < 0) {
        const char *text = getenv("IDIOM_WATCH");
        allowed = text == NULL || strcmp(text, "0") != 0;
        owner = getpid();
        long size = sysconf(_SC_PAGESIZE);
        page_bytes = size > 0 ? (uintptr_t)size : 4096;
        if (!allowed) {
            idiom__trace("watching read-only operands for writes: unavailable (IDIOM_WATCH=0)");
        }
    }
    return allowed && getpid() == owner;
}

static size_t head_bytes(const watched *w) { return w->from - w->lo; }
static size_t tail_bytes(const watched *w) { return w->hi - w->to; }

static int edges_equal(const watched *w) {
    return memcmp(w->edges, (const void *)w->lo, head_bytes(w)) == 0 &&
           memcmp(w->edges + head_bytes(w), (const void *)w->to, tail_bytes(w)) == 0;
}

static void copy_edges(watched *w) {
    memcpy(w->edges, (const void *)w->lo, head_bytes(w));
    memcpy(w->edges + head_bytes(w), (const void *)w->to, tail_bytes(w));
}

static int overlaps(const watched *w, uintptr_t from, uintptr_t to) {
    return w->state == ARMED && w->from < to && from < w->to;
}

/* Before [from, to) is protected or unregistered, which erases what its pages recorded: every
   other watched range sharing a page keeps what they say now in its `stale` flag. */
static void settle_overlapping(const watched *except, uintptr_t from, uintptr_t to,
                               int unregistering) {
    for (int i = 0; i < SLOTS; i++) {
        watched *w = &slots[i];
        if (w != except && overlaps(w, from, to) && !w->stale) {
            w->stale = unregistering || scan_written(w->from, w->to);
        }
    }
}

static void unwatch(watched *w, watch_state next) {
    if (w->state == ARMED) {
        settle_overlapping(w, w->from, w->to, 1);
        struct uffdio_range range = {w->from, w->to - w->from};
        ioctl(uffd, UFFDIO_UNREGISTER, &range);
    }
    free(w->edges);
    w->edges = NULL;
    w->state = next;
}

/* Protects w's pages and copies its edges: from here on, a write to its bytes is seen. */
static int arm(watched *w) {
    if (!watch_open()) {
        return 0;
    }
    settle_overlapping(w, w->from, w->to, 0);
    if (w->edges == NULL) {
        w->edges = malloc(head_bytes(w) + tail_bytes(w) + 1);
    }
    if (w->edges == NULL || !protect(w->from, w->to)) {
        return 0;
    }
    copy_edges(w);
    w->stale = 0;
    w->reuses = 0;
    return 1;
}

static watched *find(uintptr_t lo, uintptr_t hi, uint64_t tag) {
    for (int i = 0; i < SLOTS; i++) {
        watched *w = &slots[i];
        if (w->state != EMPTY && w->lo == lo && w->hi == hi && w->tag == tag) {
            return w;
        }
    }
    return NULL;
}

static watched *claim(uintptr_t lo, uintptr_t hi, uint64_t tag) {
    watched *oldest = &slots[0];
    for (int i = 0; i < SLOTS && oldest->state != EMPTY; i++) {
        if (slots[i].state == EMPTY || slots[i].last_use < oldest->last_use) {
            oldest = &slots[i];
        }
    }
    unwatch(oldest, EMPTY);
    *oldest = (watched){.lo = lo, .hi = hi, .tag = tag, .state = SEEN};
    oldest->from = (lo + page_bytes - 1) & ~(page_bytes - 1);
    oldest->to = hi & ~(page_bytes - 1);
    return oldest;
}

static int unchanged(const watched *w) {
    return !w->stale && edges_equal(w) && !scan_written(w->from, w->to);
}

double idiom__watched_value(const void *lo, const void *hi, uint64_t tag,
                            double (*compute)(const void *context), const void *context) {
    static int64_t min_bytes = -1;
    if (min_bytes < 0) {
        min_bytes = idiom__env_int("IDIOM_WATCH_MIN_BYTES", DEFAULT_MIN_BYTES);
    }
    uintptr_t from = (uintptr_t)lo;
    uintptr_t to = (uintptr_t)hi;
    if (to <= from || (int64_t)(to - from) < min_bytes) {
        return compute(context);
    }
    pthread_mutex_lock(&lock);
    if (!table_usable()) {
        pthread_mutex_unlock(&lock);
        return compute(context);
    }
    watched *w = find(from, to, tag);
    int first = w == NULL;
    w = first ? claim(from, to, tag) : w;
    w->last_use = ++clock_ticks;
    double value = 0.0;
    if (w->state == ARMED && unchanged(w)) {
        w->reuses++;
        atomic_fetch_add(&recalls, 1);
        value = w->value;
    } else {
        int keep = !first && (w->state == SEEN || (w->state == ARMED && w->reuses >= 2));
        if (w->state == ARMED && !keep) {
            unwatch(w, VOLATILE);
        }
        /* protected before it is read: a write during the computation is seen next time */
        if (keep && w->from < w->to && arm(w)) {
            w->state = ARMED;
        } else if (keep) {
            unwatch(w, VOLATILE);
        }
        value = compute(context);
        w->value = value;
    }
    pthread_mutex_unlock(&lock);
    return value;
}

long idiom__watch_recalls(void) { return atomic_load(&recalls); }
