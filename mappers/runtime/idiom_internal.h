/* Helpers shared by the parts of the idiom runtime; not part of its ABI. */
#ifndef IDIOM_INTERNAL_H
#define IDIOM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "idiom_runtime.h"

/* idiom_cl_min_work()'s value once known, -1 before; guards read it without a call. */
extern _Atomic int64_t idiom_cl_min_work_known;

/* The world functions built twice run (IDIOM_WORLD_*); they read it without a call. */
extern _Atomic int8_t idiom_world;

#define IDIOM_HIDDEN __attribute__((visibility("hidden")))

typedef enum { IDIOM_MODE_AUTO, IDIOM_MODE_CPU, IDIOM_MODE_GPU, IDIOM_MODE_OFF } idiom_mode;

/* IDIOM_DEVICE, read on each call; an unknown value counts as auto (and is warned about). */
IDIOM_HIDDEN idiom_mode idiom__device_mode(void);

/* IDIOM_AUTO_DEVICE=cpu: `auto` considers the CPU OpenCL device instead of a GPU (tests). */
IDIOM_HIDDEN int idiom__auto_device_is_cpu(void);

/* Whether a GPU device node exists (idiom_runtime.c); `auto` looks for OpenCL GPUs only then. */
IDIOM_HIDDEN int idiom__gpu_node_present(void);

/* IDIOM_DEVICE=auto launches on a GPU from this many iterations of work whatever the cost
   model says (idiom_policy.h); below it, the model decides. */
#define IDIOM_DEFAULT_GPU_MIN_WORK (INT64_C(1) << 22)

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

/* ---- IDIOM_STATS: one JSON line per entry-point call (idiom_runtime.c) -------------------- */

/* Seconds on CLOCK_MONOTONIC. */
IDIOM_HIDDEN double idiom__now(void);

/* The IDIOM_STATS file, or NULL when statistics are off (unset or ""); read on each call. */
IDIOM_HIDDEN const char *idiom__stats_path(void);

/* A JSON object under construction in a fixed buffer; a line that does not fit is dropped. */
#define IDIOM_JSON_CAP 4096
typedef struct {
    char text[IDIOM_JSON_CAP];
    size_t len;
    int overflow;
} idiom_json;

/* Starts {"entry":..,"status":..,"seconds":..; add fields, then idiom__stats_emit. */
IDIOM_HIDDEN void idiom__json_begin(idiom_json *j, const char *entry, int32_t status,
                                    double seconds);
IDIOM_HIDDEN void idiom__json_int(idiom_json *j, const char *key, long long value);
/* A number; a negative value (not measured) is written as null. */
IDIOM_HIDDEN void idiom__json_seconds(idiom_json *j, const char *key, double value);
/* A string, escaped (invalid UTF-8 becomes U+FFFD); NULL is written as null. */
IDIOM_HIDDEN void idiom__json_string(idiom_json *j, const char *key, const char *value);
IDIOM_HIDDEN void idiom__json_int_list(idiom_json *j, const char *key, const int64_t *values,
                                       int count);
/* Adds "pid", closes the object and queues the line for `path` (idiom_runtime.c says when it
   is written). */
IDIOM_HIDDEN void idiom__stats_emit(idiom_json *j, const char *path);

/* The on-disk cache of OpenCL program binaries (idiom_cache.c). read: 1 and a malloc'ed copy
   of the binary stored under exactly this key, else 0. write: best effort, errors ignored. */
IDIOM_HIDDEN int idiom__cache_read(const char *key, size_t key_len, unsigned char **binary,
                                   size_t *len);
IDIOM_HIDDEN void idiom__cache_write(const char *key, size_t key_len,
                                     const unsigned char *binary, size_t len);

/* The cache's folder `name` ($IDIOM_CACHE_DIR/name, else $XDG_CACHE_HOME/idiom/name, else
   ~/.cache/idiom/name), created private if needed; 0 when there is none to use. */
IDIOM_HIDDEN int idiom__cache_folder(char *out, size_t size, const char *name);

#endif /* IDIOM_INTERNAL_H */
