/* The idiom runtime's shared parts: environment, diagnostics, hashing. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idiom_internal.h"

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
int64_t idiom_cl_min_work(void) {
    return idiom__env_int("IDIOM_CL_MIN_WORK", INT64_C(1) << 15);
}
