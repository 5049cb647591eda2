/* The safety net of device residency: page protection and the fault handler.
 *
 * The compiler places idiom_host_access calls before every host access that may follow a
 * launch (mappers/residency/placement.py). Should it miss one, the host would read a stale
 * byte or write one the device then overwrites. So the whole pages of every range the device holds are
 * protected: read-only while the device copy equals the host's bytes (a host write must drop
 * the copy), not accessible at all while the device holds newer bytes (a host read must bring
 * them back). A host access the compiler did not foresee faults; the handler finds the device
 * copy holding the page, copies its newer bytes back, forgets it and lifts the protection, and
 * the access runs again: it costs time, never correctness.
 *
 * Only whole pages can be protected. The bytes of a range on its first and last partial pages
 * share those pages with other objects (malloc's bookkeeping, other arrays) and stay
 * accessible; idiom_resident.c keeps them equal on both sides instead: uploaded again before
 * every launch that uses the copy, copied back right after every launch that writes them.
 *
 * What page protection cannot see, and how it is covered:
 * - system calls and library code given a protected address would fail (EFAULT) or fault in
 *   a state the handler cannot rely on: the compiler places a host access before every call
 *   outside the program that may touch memory, so no device copy exists when one runs;
 * - other threads of the program: a program that creates threads, forks or installs signal
 *   handlers is built without residency (mappers/residency/placement.py refuses it);
 * - the runtime's own accesses: it lifts the protection before copying into host memory, and
 *   a fault while it holds the residency lock is reported as the bug it is.
 * The handler runs only on faults of program code, between launches, with no lock of the
 * runtime held: there, calling OpenCL to copy the bytes back is safe.
 */
#define _GNU_SOURCE /* sigaltstack, MAP_ANONYMOUS */

#include "idiom_resident.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ALT_STACK_BYTES ((size_t)256 << 10)

static uintptr_t page_bytes;
static atomic_int installed;
static struct sigaction previous;
static atomic_long faults;

int idiom__guard_enabled(void) {
    static int enabled = -1; /* read once: the answer must not change while copies exist */
    if (enabled < 0) {
        const char *text = getenv("IDIOM_SAFETY_NET");
        enabled = text == NULL || text[0] != '0' || text[1] != '\0';
        long size = sysconf(_SC_PAGESIZE);
        page_bytes = size > 0 ? (uintptr_t)size : 4096;
    }
    return enabled;
}

void idiom__guard_interior(uintptr_t lo, uintptr_t hi, uintptr_t *from, uintptr_t *to) {
    idiom__guard_enabled(); /* sets page_bytes */
    uintptr_t first = (lo + page_bytes - 1) & ~(page_bytes - 1);
    uintptr_t last = hi & ~(page_bytes - 1);
    *from = first;
    *to = first < last ? last : first;
}

void idiom__guard_pages(uintptr_t lo, uintptr_t hi, uintptr_t *from, uintptr_t *to) {
    idiom__guard_enabled(); /* sets page_bytes */
    *from = lo & ~(page_bytes - 1);
    *to = (hi + page_bytes - 1) & ~(page_bytes - 1);
}

/* ---- pages a claim has to itself ----------------------------------------------------------
 *
 * glibc gives an allocation of 128 KiB or more (the threshold grows with the program's frees,
 * to 32 MiB) a mapping of its own: a 16-byte header (a zero, then the mapping's size with bit
 * 1 set), the program's bytes, and the rest of the last page unused. Nothing but the program
 * touches those pages (free reads the header, of this block only, before any lock), so the
 * partial first and last pages of a range inside one can be protected like whole ones. The
 * anonymous mapping holding the range is found in /proc/self/maps (the kernel joins
 * neighbouring mappings into one), then the block's header in it; anything unexpected (the
 * brk heap, a stack, a file, a header that does not fit) answers no. Found blocks are remembered,
 * and checked again by their header (where its page is still mapped) before being trusted. */

#define REMEMBERED 32

typedef struct {
    uintptr_t start, end;
} span;

/* Blocks found ([start, end), the header at start), and mappings where none was (any range
   inside one is answered no without reading /proc/self/maps again: a stale no costs a wait,
   never a result). */
static span known_blocks[REMEMBERED];
static span known_not[REMEMBERED];
static int blocks_next;
static int not_next;

static void remember(span *list, int *next, uintptr_t start, uintptr_t end) {
    list[*next % REMEMBERED] = (span){start, end};
    *next = (*next + 1) % REMEMBERED;
}

static int header_fits(uintptr_t start, uintptr_t end) {
    const size_t *header = (const size_t *)start;
    return header[0] == 0 && header[1] == ((end - start) | 2);
}

/* The mapping holding lo, from /proc/self/maps: 1 with its bounds when it is anonymous and
   read-write and holds hi too, -1 with its bounds when it is not, 0 when none was read. */
static int mapping_of(uintptr_t lo, uintptr_t hi, uintptr_t *start, uintptr_t *end) {
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) {
        return 0;
    }
    char line[512];
    int found = 0;
    while (found == 0 && fgets(line, sizeof line, maps) != NULL) {
        unsigned long from = 0;
        unsigned long to = 0;
        char perms[8] = "";
        unsigned long offset = 0;
        char device[16] = "";
        unsigned long inode = 0;
        int consumed = 0;
        if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %n", &from, &to, perms, &offset, device,
                   &inode, &consumed) < 6 ||
            !(from <= lo && lo < to)) {
            continue;
        }
        const char *path = line + consumed;
        *start = from;
        *end = to;
        found = hi <= to && strcmp(perms, "rw-p") == 0 && inode == 0 &&
                        (path[0] == '\n' || path[0] == '\0')
                    ? 1
                    : -1;
    }
    fclose(maps);
    return found;
}

/* The block of the mapping [start, end) holding [lo, hi): the one whose header is on lo's page
   (the common case: a range from the start of its array), else by walking the headers from
   start (the mapping may begin with one of another library's). */
static int block_of(uintptr_t start, uintptr_t end, uintptr_t lo, uintptr_t hi, span *found) {
    uintptr_t page = lo & ~(page_bytes - 1);
    if (page >= start && page + 16 <= lo) {
        size_t size = ((const size_t *)page)[1] & ~(size_t)7;
        if (size != 0 && size % page_bytes == 0 && size <= end - page && hi <= page + size &&
            header_fits(page, page + size)) {
            *found = (span){page, page + size};
            return 1;
        }
    }
    for (uintptr_t at = start; at + 16 <= end;) {
        size_t size = ((const size_t *)at)[1] & ~(size_t)7;
        if (size == 0 || size % page_bytes != 0 || size > end - at ||
            !header_fits(at, at + size)) {
            return 0;
        }
        if (at + size > lo) {
            *found = (span){at, at + size};
            return at + 16 <= lo && hi <= at + size;
        }
        at += size;
    }
    return 0;
}

/* Static arrays the program laid out on pages of their own (mappers/rewrite/owned_pages.py),
   registered by its constructors before main: they live as long as the process. */
#define OWNED_MAX 256
static span owned[OWNED_MAX];
static atomic_int owned_count;
static pthread_mutex_t owned_lock = PTHREAD_MUTEX_INITIALIZER;

void idiom_private_pages(const void *start, int64_t bytes) {
    idiom__guard_enabled(); /* sets page_bytes */
    uintptr_t lo = (uintptr_t)start;
    uintptr_t hi = lo + (uintptr_t)bytes;
    /* Whole pages of this machine's size only (the rewriter aligns to 4 KiB). */
    if (bytes <= 0 || lo % page_bytes != 0 || hi % page_bytes != 0 || hi < lo) {
        return;
    }
    pthread_mutex_lock(&owned_lock);
    int n = atomic_load(&owned_count);
    if (n < OWNED_MAX) {
        owned[n] = (span){lo, hi};
        atomic_store(&owned_count, n + 1); /* published after the span is written */
    }
    pthread_mutex_unlock(&owned_lock);
}

static int owns_pages(uintptr_t lo, uintptr_t hi) {
    int n = atomic_load(&owned_count);
    for (int i = 0; i < n; i++) {
        if (owned[i].start <= lo && hi <= owned[i].end) {
            return 1;
        }
    }
    return 0;
}

int idiom__guard_private(uintptr_t lo, uintptr_t hi) {
    idiom__guard_enabled(); /* sets page_bytes */
    if (owns_pages(lo, hi)) {
        return 1;
    }
    uintptr_t first_page = lo & ~(page_bytes - 1);
    for (int i = 0; i < REMEMBERED; i++) {
        const span *b = &known_blocks[i];
        /* Trusted again only where its header shares lo's page, which the caller can read. */
        if (b->start == first_page && b->start + 16 <= lo && hi <= b->end &&
            header_fits(b->start, b->end)) {
            return 1;
        }
        const span *n = &known_not[i];
        if (n->start <= lo && hi <= n->end) {
            return 0;
        }
    }
    uintptr_t start = 0;
    uintptr_t end = 0;
    int mapping = mapping_of(lo, hi, &start, &end);
    span found = {0, 0};
    if (mapping == 1 && block_of(start, end, lo, hi, &found)) {
        remember(known_blocks, &blocks_next, found.start, found.end);
        return 1;
    }
    if (mapping != 0) {
        remember(known_not, &not_next, start, end);
    }
    return 0;
}

long idiom__guard_faults(void) {
    return atomic_load(&faults);
}

/* Gives the fault to whoever had SIGSEGV before: the default action ends the program as it
   would have ended without us (the access runs again and faults with no handler). */
static void pass_on(int signal, siginfo_t *info, void *context) {
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) {
            previous.sa_sigaction(signal, info, context);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
        return;
    }
    sigaction(SIGSEGV, &previous, NULL);
}

static void on_fault(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    if (idiom__resident_lock_is_mine()) {
        static const char message[] =
            "idiom: internal error: the runtime touched memory a device holds\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        sigaction(SIGSEGV, &previous, NULL);
        return;
    }
    if (idiom__resident_fault(address)) {
        atomic_fetch_add(&faults, 1);
        return; /* the access runs again, on an unprotected page */
    }
    pass_on(signal, info, context);
}

/* Installs the handler once, on an alternate stack of its own: a fault may come where the
   stack has little room left. */
static int install(void) {
    if (atomic_load(&installed)) {
        return 0;
    }
    stack_t alternate;
    memset(&alternate, 0, sizeof alternate);
    alternate.ss_size = ALT_STACK_BYTES;
    alternate.ss_sp = mmap(NULL, ALT_STACK_BYTES, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alternate.ss_sp == MAP_FAILED || sigaltstack(&alternate, NULL) != 0) {
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSEGV, &action, &previous) != 0) {
        return -1;
    }
    atomic_store(&installed, 1);
    return 0;
}

int idiom__guard_protect(uintptr_t from, uintptr_t to, int readable, int writable) {
    if (from >= to) {
        return 0;
    }
    if ((!readable || !writable) && install() != 0) {
        return -1;
    }
    int protection = (readable ? PROT_READ : 0) | (writable ? PROT_WRITE : 0);
    return mprotect((void *)from, to - from, protection == 0 ? PROT_NONE : protection);
}
