/* Helpers shared by the parts of the idiom runtime; not part of its ABI. */
#ifndef IDIOM_INTERNAL_H
#define IDIOM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "idiom_runtime.h"

#define IDIOM_HIDDEN __attribute__((visibility("hidden")))

typedef enum { IDIOM_MODE_AUTO, IDIOM_MODE_CPU, IDIOM_MODE_GPU, IDIOM_MODE_OFF } idiom_mode;

/* IDIOM_DEVICE, read on each call; an unknown value counts as auto (and is warned about). */
IDIOM_HIDDEN idiom_mode idiom__device_mode(void);

/* A non-negative integer environment variable, or `fallback` when unset or malformed. */
IDIOM_HIDDEN int64_t idiom__env_int(const char *name, int64_t fallback);

/* IDIOM_VERBOSE is set to something other than "" or "0". */
IDIOM_HIDDEN int idiom__verbose(void);

/* Prints "idiom: <message>" on stderr unless the same message was printed before. */
IDIOM_HIDDEN void idiom__warn_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "idiom: <message>" on stderr when IDIOM_VERBOSE is on. */
IDIOM_HIDDEN void idiom__trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 64-bit FNV-1a, continued from `h` (start with IDIOM_FNV_START). */
#define IDIOM_FNV_START UINT64_C(0xcbf29ce484222325)
IDIOM_HIDDEN uint64_t idiom__fnv1a(uint64_t h, const void *data, uint64_t len);

IDIOM_HIDDEN const char *idiom__status_name(int32_t status);

/* The on-disk cache of OpenCL program binaries (idiom_cache.c). read: 1 and a malloc'ed copy
   of the binary stored under exactly this key, else 0. write: best effort, errors ignored. */
IDIOM_HIDDEN int idiom__cache_read(const char *key, size_t key_len, unsigned char **binary,
                                   size_t *len);
IDIOM_HIDDEN void idiom__cache_write(const char *key, size_t key_len,
                                     const unsigned char *binary, size_t len);

#endif /* IDIOM_INTERNAL_H */
