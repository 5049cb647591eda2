/* Launch shapes tuned on the device: see idiom_tune.h.
 *
 * One entry per (kernel, size class, device): the candidate being timed and the best time of
 * each, then the one chosen. Choices are kept in the cache folder's "tune/shapes", a line
 * "<key> <candidate>" each, appended with one write (whole lines under concurrent runs); a
 * line that does not parse, or names no candidate, is ignored, and the last line of a key
 * wins. One mutex guards it all.
 */
#define _POSIX_C_SOURCE 200809L

#include "idiom_tune.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENTRIES 256
#define MAX_CANDIDATES 16
#define RUNS 2 /* launches timed per candidate: the best of them counts */

typedef struct {
    int16_t local[3]; /* all 0: the caller's own work-group */
    int16_t factor;   /* elements a work-item takes in the outermost dimension */
} candidate;

/* Innermost dimension first, as the NDRange's. The caller's shape comes first: a candidate
   equal to it is not timed again. */
static const candidate ONE[] = {
    {{0, 0, 0}, 1},   {{64, 1, 1}, 1},  {{128, 1, 1}, 1}, {{256, 1, 1}, 1},
    {{256, 1, 1}, 2}, {{256, 1, 1}, 4}, {{256, 1, 1}, 8}, {{128, 1, 1}, 4},
};
static const candidate TWO[] = {
    {{0, 0, 0}, 1},  {{32, 8, 1}, 1},  {{64, 4, 1}, 1},  {{128, 2, 1}, 1},
    {{256, 1, 1}, 1}, {{32, 4, 1}, 1},  {{16, 16, 1}, 1}, {{32, 8, 1}, 2},
    {{32, 8, 1}, 4}, {{64, 4, 1}, 4}, {{256, 1, 1}, 4},
};
static const candidate THREE[] = {
    {{0, 0, 0}, 1},  {{32, 8, 1}, 1},  {{64, 4, 1}, 1},  {{128, 2, 1}, 1},
    {{256, 1, 1}, 1}, {{32, 4, 2}, 1},  {{32, 8, 1}, 2},  {{32, 8, 1}, 4},
    {{32, 8, 1}, 8}, {{128, 2, 1}, 4}, {{64, 4, 1}, 4}, {{256, 1, 1}, 4},
    /* Long runs: a streamed kernel's work-items keep values from one outer element to the
       next (lift's map-stream), so fewer, longer runs read less. */
    {{32, 4, 1}, 12}, {{32, 4, 1}, 24}, {{64, 2, 1}, 16},
};

typedef struct {
    uint64_t key; /* 0: free */
    int chosen;   /* -1 until chosen */
    int next;     /* the candidate being timed */
    int runs;     /* its launches timed so far */
    int said;     /* the choice was traced */
    double best[MAX_CANDIDATES];
} entry;

static pthread_mutex_t tune_lock = PTHREAD_MUTEX_INITIALIZER;
static entry entries[ENTRIES];
static int loaded;

static const candidate *candidates_of(int32_t dims, int *count) {
    switch (dims) {
    case 1:
        *count = (int)(sizeof ONE / sizeof ONE[0]);
        return ONE;
    case 2:
        *count = (int)(sizeof TWO / sizeof TWO[0]);
        return TWO;
    default:
        *count = (int)(sizeof THREE / sizeof THREE[0]);
        return THREE;
    }
}

/* IDIOM_TUNE and IDIOM_TUNE_CANDIDATE, read once: a launch's host time counts (getenv scans
   the whole environment). */
static pthread_once_t read_once = PTHREAD_ONCE_INIT;
static int tune_setting = -1; /* -1: unset (GPUs only), 0: off, 1: on */
static int64_t forced_candidate = -1;

static void read_settings(void) {
    const char *text = getenv("IDIOM_TUNE");
    if (text != NULL && *text != '\0') {
        tune_setting = strcmp(text, "0") != 0;
    }
    forced_candidate = idiom__env_int("IDIOM_TUNE_CANDIDATE", -1);
}

int idiom__tune_on(int gpu) {
    pthread_once(&read_once, read_settings);
    return tune_setting < 0 ? gpu : tune_setting;
}

/* The size class: how many bits the NDRange's count of work-items takes. */
static int size_class(int32_t dims, const int64_t *global) {
    uint64_t items = 1;
    for (int32_t d = 0; d < dims; d++) {
        items *= (uint64_t)global[d];
    }
    int bits = 0;
    while (items != 0) {
        bits++;
        items >>= 1;
    }
    return bits;
}

static uint64_t key_of(uint64_t site, const char *device, int32_t dims, const int64_t *global) {
    int klass = size_class(dims, global);
    uint64_t h = idiom__fnv1a(IDIOM_FNV_START, &site, sizeof site);
    h = idiom__fnv1a(h, &klass, sizeof klass);
    h = idiom__fnv1a(h, device, strlen(device));
    return h != 0 ? h : 1;
}

static entry *find(uint64_t key) {
    for (unsigned probe = 0; probe < ENTRIES; probe++) {
        entry *e = &entries[(key + probe) % ENTRIES];
        if (e->key == key) {
            return e;
        }
        if (e->key == 0) {
            memset(e, 0, sizeof *e);
            e->key = key;
            e->chosen = -1;
            return e;
        }
    }
    return NULL; /* full: the caller's shape */
}

static int shapes_path(char *out, size_t size) {
    char dir[4096];
    if (!idiom__cache_folder(dir, sizeof dir, "tune")) {
        return 0;
    }
    int len = snprintf(out, size, "%s/shapes", dir);
    return len > 0 && (size_t)len < size;
}

static void load(void) {
    loaded = 1;
    char path[4200];
    if (!shapes_path(path, sizeof path)) {
        return;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return;
    }
    char line[128];
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long long key = 0;
        int chosen = -1;
        char end = '\0';
        if (sscanf(line, "%16llx %d%c", &key, &chosen, &end) != 3 || end != '\n' || key == 0 ||
            chosen < 0 || chosen >= MAX_CANDIDATES) {
            continue;
        }
        entry *e = find((uint64_t)key);
        if (e != NULL) {
            e->chosen = chosen;
        }
    }
    fclose(f);
}

static void keep(uint64_t key, int chosen) {
    char path[4200];
    if (!shapes_path(path, sizeof path)) {
        return;
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd < 0) {
        return;
    }
    char line[64];
    int len = snprintf(line, sizeof line, "%016llx %d\n", (unsigned long long)key, chosen);
    if (write(fd, line, (size_t)len) != len) { /* best effort: the next run tunes again */
        idiom__trace("tune: could not keep the shape chosen in %s", path);
    }
    close(fd);
}

static int64_t round_up(int64_t n, int64_t to) {
    return (n + to - 1) / to * to;
}

/* The NDRange of candidate `c` for the caller's sizes (`local` NULL: the driver's choice). */
static void apply(const candidate *c, int32_t dims, const int64_t *global, const int64_t *local,
                  idiom_tune_shape *shape) {
    shape->driver_local = c->local[0] == 0 && local == NULL;
    for (int32_t d = 0; d < 3; d++) {
        shape->global[d] = d < dims ? global[d] : 1;
        shape->local[d] = d < dims && local != NULL ? local[d] : 1;
    }
    if (c->local[0] == 0) {
        return;
    }
    for (int32_t d = 0; d < dims; d++) {
        int64_t items = d == dims - 1 ? (global[d] + c->factor - 1) / c->factor : global[d];
        shape->local[d] = c->local[d];
        shape->global[d] = round_up(items > 0 ? items : 1, c->local[d]);
    }
}

/* Whether candidate `c` launches as the caller's shape does. */
static int same_as_callers(const candidate *c, int32_t dims, const int64_t *local) {
    if (c->local[0] == 0) {
        return 1;
    }
    if (local == NULL || c->factor != 1) {
        return 0;
    }
    for (int32_t d = 0; d < 3; d++) {
        if (c->local[d] != (d < dims ? local[d] : 1)) {
            return 0;
        }
    }
    return 1;
}

static void describe(const candidate *c, int32_t dims, const int64_t *local, char *out,
                     size_t size) {
    if (c->local[0] == 0 && local == NULL) {
        snprintf(out, size, "work-groups of the driver's choice, 1 element(s) an item");
        return;
    }
    int64_t l[3] = {1, 1, 1};
    for (int32_t d = 0; d < dims; d++) {
        l[d] = c->local[0] == 0 ? local[d] : c->local[d];
    }
    snprintf(out, size, "work-groups %lldx%lldx%lld, %d element(s) an item", (long long)l[0],
             (long long)l[1], (long long)l[2], (int)c->factor);
}

void idiom__tune_shape(uint64_t site, const char *kernel, const char *device, int32_t dims,
                       const int64_t *global, const int64_t *local, idiom_tune_shape *shape) {
    int count = 0;
    const candidate *all = candidates_of(dims, &count);
    pthread_once(&read_once, read_settings);
    int64_t forced = forced_candidate;
    if (forced >= 0) { /* every launch of that shape (tests: any shape computes the same) */
        apply(&all[forced < count ? forced : count - 1], dims, global, local, shape);
        shape->candidate = -1;
        return;
    }
    uint64_t key = key_of(site, device, dims, global);
    pthread_mutex_lock(&tune_lock);
    if (!loaded) {
        load();
    }
    entry *e = find(key);
    int chosen = e == NULL ? 0 : e->chosen;
    if (chosen >= count) { /* a kept choice this table does not have: tune again */
        e->chosen = chosen = -1;
    }
    int timing = chosen < 0 ? e->next : -1;
    if (chosen >= 0 && e != NULL && !e->said) { /* kept by an earlier run */
        e->said = 1;
        char text[96];
        describe(&all[chosen], dims, local, text, sizeof text);
        idiom__trace("tune: '%s' on '%s': %s, as an earlier run chose", kernel, device, text);
    }
    pthread_mutex_unlock(&tune_lock);
    apply(&all[timing >= 0 ? timing : chosen], dims, global, local, shape);
    shape->candidate = timing;
}

/* The candidate after `from` that is not the caller's shape again, or `count`. */
static int next_candidate(const candidate *all, int count, int from, int32_t dims,
                          const int64_t *local) {
    int next = from + 1;
    while (next < count && same_as_callers(&all[next], dims, local)) {
        next++;
    }
    return next;
}

/* Every candidate timed: the fastest is chosen, said and kept. Called under tune_lock. */
static void choose(entry *e, const candidate *all, int count, const char *kernel,
                   const char *device, int32_t dims, const int64_t *local) {
    int best = 0;
    for (int c = 1; c < count; c++) {
        if (!same_as_callers(&all[c], dims, local) && e->best[c] < e->best[best]) {
            best = c;
        }
    }
    e->chosen = best;
    e->said = 1;
    keep(e->key, best);
    char shape[96];
    describe(&all[best], dims, local, shape, sizeof shape);
    idiom__trace("tune: '%s' on '%s': %s chosen, %.1f us (the caller's shape %.1f us)", kernel,
                 device, shape, e->best[best] * 1e6, e->best[0] * 1e6);
}

void idiom__tune_timed(uint64_t site, const char *kernel, const char *device, int32_t dims,
                       const int64_t *global, const int64_t *local, int candidate_timed,
                       double seconds) {
    int count = 0;
    const candidate *all = candidates_of(dims, &count);
    uint64_t key = key_of(site, device, dims, global);
    pthread_mutex_lock(&tune_lock);
    entry *e = find(key);
    if (e == NULL || e->chosen >= 0 || e->next != candidate_timed) { /* another thread's */
        pthread_mutex_unlock(&tune_lock);
        return;
    }
    /* A launch that failed (seconds < 0) takes its candidate out. */
    double time = seconds >= 0.0 ? seconds : INFINITY;
    char text[96];
    describe(&all[candidate_timed], dims, local, text, sizeof text);
    idiom__trace("tune: '%s' on '%s': %s, %.1f us", kernel, device, text, time * 1e6);
    if (e->runs == 0 || time < e->best[e->next]) {
        e->best[e->next] = time;
    }
    if (++e->runs >= RUNS || seconds < 0.0) {
        e->runs = 0;
        e->next = next_candidate(all, count, e->next, dims, local);
        if (e->next >= count) {
            choose(e, all, count, kernel, device, dims, local);
        }
    }
    pthread_mutex_unlock(&tune_lock);
}
