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

#include <signal.h>
#include <stdatomic.h>
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
