/* The idiom runtime's shared parts: environment, diagnostics, hashing, statistics. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "idiom_internal.h"
#include "idiom_policy.h"

uint64_t idiom__fnv1a(uint64_t h, const void *data, uint64_t len) {
    const unsigned char *p = data;
    for (uint64_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

int64_t idiom__env_int(const char *name, int64_t fallback) {
    const char *text = getenv(name);
    if (text == NULL || *text == '\0') {
        return fallback;
    }
    char *end = NULL;
    errno = 0;
    long long value = strtoll(text, &end, 0);
    if (errno != 0 || end == text || *end != '\0' || value < 0) {
        idiom__warn_once("%s=%s is not a non-negative integer; using %lld", name, text,
                         (long long)fallback);
        return fallback;
    }
    return (int64_t)value;
}

idiom_mode idiom__device_mode(void) {
    const char *text = getenv("IDIOM_DEVICE");
    if (text == NULL || *text == '\0' || strcmp(text, "auto") == 0) {
        return IDIOM_MODE_AUTO;
    }
    if (strcmp(text, "cpu") == 0) {
        return IDIOM_MODE_CPU;
    }
    if (strcmp(text, "gpu") == 0) {
        return IDIOM_MODE_GPU;
    }
    if (strcmp(text, "off") == 0) {
        return IDIOM_MODE_OFF;
    }
    idiom__warn_once("IDIOM_DEVICE=%s is not one of auto, cpu, gpu, off; using auto", text);
    return IDIOM_MODE_AUTO;
}

int idiom__auto_device_is_cpu(void) {
    const char *text = getenv("IDIOM_AUTO_DEVICE");
    return text != NULL && strcmp(text, "cpu") == 0;
}

int idiom__verbose(void) {
    const char *text = getenv("IDIOM_VERBOSE");
    return text != NULL && *text != '\0' && strcmp(text, "0") != 0;
}

const char *idiom__status_name(int32_t status) {
    switch (status) {
    case IDIOM_DONE:
        return "done";
    case IDIOM_DECLINED:
        return "declined";
    default:
        return "failed";
    }
}

/* Hashes of the warnings already printed. A program has few distinct warnings; past the
   table's size the rest are dropped rather than repeated on every call. */
#define WARNED_SLOTS 256
static pthread_mutex_t warned_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t warned[WARNED_SLOTS];
static int warned_count;

void idiom__warn_once(const char *fmt, ...) {
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);

    uint64_t h = idiom__fnv1a(IDIOM_FNV_START, message, strlen(message));
    int fresh = 0;
    pthread_mutex_lock(&warned_lock);
    int seen = 0;
    for (int i = 0; i < warned_count; i++) {
        if (warned[i] == h) {
            seen = 1;
            break;
        }
    }
    if (!seen && warned_count < WARNED_SLOTS) {
        warned[warned_count++] = h;
        fresh = 1;
    }
    pthread_mutex_unlock(&warned_lock);
    if (fresh) {
        fprintf(stderr, "idiom: %s\n", message);
    }
}

void idiom__trace(const char *fmt, ...) {
    if (!idiom__verbose()) {
        return;
    }
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    /* One fprintf per line keeps lines whole when several threads trace. */
    fprintf(stderr, "idiom: %s\n", message);
}

/* The guards the rewriter emits keep loops of fewer iterations than this on the original
 * code: a kernel launch costs tens of microseconds. IDIOM_CL_MIN_WORK overrides it (the
 * tests set 1 so that small inputs exercise the kernels). */
/* Guards call this before every region they may replace, inner loops of a few iterations
   included: it is read from the environment once (getenv scans the whole environment). */
_Atomic int64_t idiom_cl_min_work_known = -1; /* guards read it first (require_worth_it) */

static int64_t decide_min_work(void) {
    int64_t minimum = idiom__env_int("IDIOM_CL_MIN_WORK", INT64_C(1) << 15);
    switch (idiom__device_mode()) {
    case IDIOM_MODE_OFF:
        minimum = INT64_MAX;
        break;
    case IDIOM_MODE_AUTO: /* without a GPU to use, every launch would decline */
        if (!idiom__auto_device_is_cpu() && !idiom__gpu_node_present()) {
            minimum = INT64_MAX;
        } else if (idiom__env_int("IDIOM_AUTO_AS_COMPILED", 1) != 0 &&
                   idiom__policy_runs_as_compiled(idiom__auto_device_is_cpu() ? "CPU" : "GPU")) {
            idiom__trace("auto: this program's last run gained too little on the device; "
                         "loops run as compiled");
            minimum = INT64_MAX;
        }
        break;
    default:
        break;
    }
    return minimum;
}

int32_t idiom_row_lanes(void) {
    static _Atomic int32_t known = -1;
    int32_t lanes = atomic_load_explicit(&known, memory_order_relaxed);
    if (lanes < 0) {
        const char *text = getenv("IDIOM_ROW_LANES");
        lanes = text != NULL && *text != '\0' ? strcmp(text, "0") != 0
                                              : idiom__device_mode() != IDIOM_MODE_CPU;
        atomic_store_explicit(&known, lanes, memory_order_relaxed);
    }
    return lanes;
}

int64_t idiom_cl_min_work(void) {
    static pthread_mutex_t deciding = PTHREAD_MUTEX_INITIALIZER;
    int64_t known = atomic_load_explicit(&idiom_cl_min_work_known, memory_order_relaxed);
    if (known >= 0) {
        return known;
    }
    /* Decided once: guards and idiom_world_decide must agree, and the remembered runs as
       compiled count this run once. */
    pthread_mutex_lock(&deciding);
    known = atomic_load_explicit(&idiom_cl_min_work_known, memory_order_relaxed);
    if (known < 0) {
        known = decide_min_work();
        atomic_store_explicit(&idiom_cl_min_work_known, known, memory_order_relaxed);
    }
    pthread_mutex_unlock(&deciding);
    return known;
}

/* Whether this machine has a device node that a GPU's OpenCL driver opens: NVIDIA's
 * (/dev/nvidiactl), AMD's ROCm (/dev/kfd), a DRM render node (/dev/dri/renderD*: Intel, Mesa,
 * AMD), Arm Mali (/dev/mali0). Without one there is no GPU to find, and `auto` need not load
 * the OpenCL platforms: PoCL's start-up alone took 0.22 s on the project's 2-core machine, paid
 * once per process by any program with a loop large enough to ask (docs/acceleration.md).
 * IDIOM_DEVICE=gpu or cpu always asks OpenCL (a remote device has no node here). */
int idiom__gpu_node_present(void) {
    static const char *const nodes[] = {"/dev/nvidiactl", "/dev/kfd", "/dev/mali0"};
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        if (access(nodes[i], F_OK) == 0) {
            return 1;
        }
    }
    DIR *dri = opendir("/dev/dri");
    if (dri == NULL) {
        return 0;
    }
    int found = 0;
    for (struct dirent *entry = readdir(dri); entry != NULL && !found; entry = readdir(dri)) {
        found = strncmp(entry->d_name, "renderD", 7) == 0;
    }
    closedir(dri);
    return found;
}

/* ---- The original world ------------------------------------------------------------------
 *
 * A function whose replaced loops all launch OpenCL kernels is built twice
 * (mappers/rewrite/worlds.py): as the source's own code and as the rewritten code, behind a test of idiom_world. Where no
 * launch can happen in this process (IDIOM_DEVICE=off, thresholds at their maximum, or `auto`
 * on a machine with no GPU device node), every such function runs the source's code, inlined
 * and optimised as in the original build, and its guards are never reached. */
_Atomic int8_t idiom_world = IDIOM_WORLD_UNKNOWN;

int32_t idiom_world_decide(void) {
    idiom_mode mode = idiom__device_mode();
    int original = mode == IDIOM_MODE_OFF;
    if (mode == IDIOM_MODE_AUTO && !idiom__auto_device_is_cpu() && !idiom__gpu_node_present()) {
        idiom__trace("auto: no GPU here; loops run as compiled");
        atomic_store_explicit(&idiom_cl_min_work_known, INT64_MAX, memory_order_relaxed);
        original = 1;
    }
    original = original || idiom_cl_min_work() == INT64_MAX;
    int8_t world = original ? IDIOM_WORLD_ORIGINAL : IDIOM_WORLD_REWRITTEN;
    atomic_store_explicit(&idiom_world, world, memory_order_relaxed);
    return original;
}

/* ---- IDIOM_STATS ------------------------------------------------------------------------------
 *
 * Each call of an entry point makes one JSON line. Lines are collected in a process-wide buffer
 * under a mutex and appended to the file (opened O_APPEND, so processes can share it) by a
 * single write() of whole lines: when the buffer fills, when the previous write is a second
 * old, when IDIOM_STATS names another file, and at exit (atexit, which exit() and a return from
 * main run). So the cost per call is two clock reads and a memcpy, and a line is never split
 * between writes; a program killed by a signal loses the lines since the last write. A forked
 * child starts with an empty buffer: the parent writes its own lines.
 */

double idiom__now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *idiom__stats_path(void) {
    const char *path = getenv("IDIOM_STATS");
    return path != NULL && *path != '\0' ? path : NULL;
}

static void json_raw(idiom_json *j, const char *text, size_t len) {
    if (j->overflow || len > sizeof j->text - j->len) {
        j->overflow = 1;
        return;
    }
    memcpy(j->text + j->len, text, len);
    j->len += len;
}

/* A string literal, without its NUL. */
#define JSON_LIT(j, literal) json_raw(j, literal, sizeof(literal) - 1)

static void json_printf(idiom_json *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void json_printf(idiom_json *j, const char *fmt, ...) {
    if (j->overflow) {
        return;
    }
    size_t room = sizeof j->text - j->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(j->text + j->len, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room) {
        j->overflow = 1;
        return;
    }
    j->len += (size_t)n;
}

/* Numbers are formatted by hand: printf would cost more than the rest of a call's record. */
static void json_int(idiom_json *j, long long value) {
    char digits[24];
    char *p = digits + sizeof digits;
    unsigned long long v = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (value < 0) {
        *--p = '-';
    }
    json_raw(j, p, (size_t)(digits + sizeof digits - p));
}

/* A duration as a decimal with 9 places (exact to the nanosecond). */
static void json_duration(idiom_json *j, double seconds) {
    if (!(seconds < 1e9)) { /* not a duration this process could measure */
        json_printf(j, "%.9g", seconds);
        return;
    }
    unsigned long long ns = (unsigned long long)(seconds * 1e9 + 0.5);
    char fraction[10];
    unsigned long long rest = ns % 1000000000ULL;
    fraction[0] = '.';
    for (int i = 9; i >= 1; i--) {
        fraction[i] = (char)('0' + rest % 10);
        rest /= 10;
    }
    json_int(j, (long long)(ns / 1000000000ULL));
    json_raw(j, fraction, sizeof fraction);
}

/* ,"key": (keys are our own literals: no escaping needed). */
static void json_key(idiom_json *j, const char *key) {
    JSON_LIT(j, ",\"");
    json_raw(j, key, strlen(key));
    JSON_LIT(j, "\":");
}

void idiom__json_begin(idiom_json *j, const char *entry, int32_t status, double seconds) {
    j->len = 0;
    j->overflow = 0;
    JSON_LIT(j, "{\"entry\":\"");
    json_raw(j, entry, strlen(entry));
    JSON_LIT(j, "\",\"status\":");
    json_int(j, status);
    JSON_LIT(j, ",\"seconds\":");
    json_duration(j, seconds >= 0.0 ? seconds : 0.0);
}

void idiom__json_int(idiom_json *j, const char *key, long long value) {
    json_key(j, key);
    json_int(j, value);
}

void idiom__json_seconds(idiom_json *j, const char *key, double value) {
    json_key(j, key);
    if (value >= 0.0) {
        json_duration(j, value);
    } else {
        JSON_LIT(j, "null");
    }
}

/* The length of the valid UTF-8 sequence at s[0..len), or 0 if it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t len) {
    unsigned char c = s[0];
    size_t n = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlong forms */
        hi = c == 0xED ? 0x9F : 0xBF; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    if (len < n || s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (size_t i = 2; i < n; i++) {
        if (s[i] < 0x80 || s[i] > 0xBF) {
            return 0;
        }
    }
    return n;
}

/* Longer strings are cut (at a character boundary), so that a line always fits. */
#define JSON_STRING_MAX 256

void idiom__json_string(idiom_json *j, const char *key, const char *value) {
    json_key(j, key);
    if (value == NULL) {
        JSON_LIT(j, "null");
        return;
    }
    const unsigned char *s = (const unsigned char *)value;
    size_t len = strlen(value);
    JSON_LIT(j, "\"");
    for (size_t i = 0; i < len && i < JSON_STRING_MAX;) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            char escaped[2] = {'\\', (char)c};
            json_raw(j, escaped, 2);
            i++;
        } else if (c == '\n') {
            JSON_LIT(j, "\\n");
            i++;
        } else if (c == '\t') {
            JSON_LIT(j, "\\t");
            i++;
        } else if (c < 0x20) {
            json_printf(j, "\\u%04x", (unsigned)c);
            i++;
        } else if (c < 0x80) {
            json_raw(j, (const char *)&s[i], 1);
            i++;
        } else {
            size_t n = utf8_sequence(s + i, len - i);
            if (n == 0) {
                JSON_LIT(j, "\\ufffd");
                i++;
            } else {
                json_raw(j, (const char *)&s[i], n);
                i += n;
            }
        }
    }
    JSON_LIT(j, "\"");
}

void idiom__json_int_list(idiom_json *j, const char *key, const int64_t *values, int count) {
    json_key(j, key);
    JSON_LIT(j, "[");
    for (int i = 0; values != NULL && i < count; i++) {
        if (i > 0) {
            JSON_LIT(j, ",");
        }
        json_int(j, (long long)values[i]);
    }
    JSON_LIT(j, "]");
}

#define STATS_BUFFER 65536
#define STATS_PERIOD 1.0

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static char stats_buffer[STATS_BUFFER];
static size_t stats_len;
static char *stats_file; /* where the buffered lines go */
static double stats_written_at;
static int stats_hooks;
static long stats_pid; /* getpid() is a system call: cached, 0 until known */
static double stats_started; /* the program's start (a constructor), for "at" */

__attribute__((constructor)) static void stats_note_start(void) {
    stats_started = idiom__now();
}

/* Appends the buffered lines to stats_file in one write(). Called under stats_lock. */
static void stats_flush(void) {
    stats_written_at = idiom__now();
    if (stats_len == 0 || stats_file == NULL) {
        return;
    }
    int fd = open(stats_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        idiom__warn_once("cannot open the IDIOM_STATS file %s: %s", stats_file,
                         strerror(errno));
    } else {
        size_t done = 0;
        while (done < stats_len) {
            ssize_t n = write(fd, stats_buffer + done, stats_len - done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                idiom__warn_once("cannot write the IDIOM_STATS file %s: %s", stats_file,
                                 n < 0 ? strerror(errno) : "nothing written");
                break;
            }
            done += (size_t)n;
        }
        close(fd);
    }
    stats_len = 0;
}

static void stats_at_exit(void) {
    pthread_mutex_lock(&stats_lock);
    stats_flush();
    pthread_mutex_unlock(&stats_lock);
}

/* fork() while another thread holds the lock must not leave the child's copy locked, and the
   child must not write the parent's lines a second time. */
static void stats_before_fork(void) {
    pthread_mutex_lock(&stats_lock);
}

static void stats_after_fork_parent(void) {
    pthread_mutex_unlock(&stats_lock);
}

static void stats_after_fork_child(void) {
    stats_len = 0;
    stats_pid = 0;
    pthread_mutex_unlock(&stats_lock);
}

void idiom__stats_emit(idiom_json *j, const char *path) {
    pthread_mutex_lock(&stats_lock);
    if (!stats_hooks) {
        stats_hooks = 1;
        atexit(stats_at_exit);
        pthread_atfork(stats_before_fork, stats_after_fork_parent, stats_after_fork_child);
    }
    if (stats_pid == 0) {
        stats_pid = (long)getpid();
    }
    JSON_LIT(j, ",\"pid\":");
    json_int(j, stats_pid);
    idiom__json_seconds(j, "at", idiom__now() - stats_started);
    JSON_LIT(j, "}\n");
    if (j->overflow) {
        pthread_mutex_unlock(&stats_lock);
        idiom__warn_once("an IDIOM_STATS line did not fit in %d bytes; dropped", IDIOM_JSON_CAP);
        return;
    }
    if (stats_file == NULL || strcmp(stats_file, path) != 0) {
        stats_flush();
        free(stats_file);
        stats_file = strdup(path);
    }
    if (stats_len + j->len > sizeof stats_buffer) {
        stats_flush();
    }
    memcpy(stats_buffer + stats_len, j->text, j->len); /* j->len <= IDIOM_JSON_CAP */
    stats_len += j->len;
    if (idiom__now() - stats_written_at >= STATS_PERIOD) {
        stats_flush();
    }
    pthread_mutex_unlock(&stats_lock);
}
