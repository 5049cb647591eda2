/* Checks not launched again while their inputs are unchanged (see idiom_memo.h).
 *
 * A record holds, for one check: a key (the kernel, its sizes, its scalars, the contents of
 * its small host buffers), the stamp of every device copy it read with the host's bytes on
 * their partial pages, and the bytes it wrote (its small outputs). A launch with an equal key
 * whose stamps and partial pages are still equal would compute the same outputs: they are
 * written again, and nothing runs on the device.
 *
 * Everything here is called with the residency lock held.
 */
#define _POSIX_C_SOURCE 200809L

#include "idiom_memo.h"

#include <stdlib.h>
#include <string.h>

#define RECORDS 64
#define SMALL_BUFFER 256 /* bytes: a host buffer up to this size is part of the key */
#define MAX_INPUTS 16    /* device copies a record may stamp */

typedef struct {
    uintptr_t lo, hi;
    idiom_stamp stamp;
    unsigned char *edges; /* the host's bytes on the stamp's edges, one after the other */
} stamped_input;

typedef struct {
    int used;
    uint64_t hash; /* of the key, to skip records quickly */
    unsigned char *key;
    size_t key_len;
    stamped_input inputs[MAX_INPUTS];
    int input_count;
    unsigned char *outputs; /* every OUT/INOUT small buffer's bytes, in argument order */
    uint64_t last_used;
} record;

static record records[RECORDS];
static uint64_t uses;

/* A growing byte string. */
typedef struct {
    unsigned char *data;
    size_t len, cap;
    int failed;
} bytes;

static void put(bytes *b, const void *data, size_t len) {
    if (b->failed || len == 0) {
        return;
    }
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len) {
            cap *= 2;
        }
        unsigned char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

static int is_output(int32_t kind) {
    return kind == IDIOM_ARG_OUT || kind == IDIOM_ARG_INOUT;
}

static int resident_arg(const idiom_arg *arg, int resident_mode) {
    return resident_mode && (arg->flags & IDIOM_ARG_RESIDENT) && arg->bytes > 0;
}

/* The launch's key (before it runs: an INOUT buffer's bytes are what it starts from); 0 when
   the launch cannot be remembered (an output kept on the device, a large host buffer). */
static int describe(const idiom_memo_launch *launch, int resident_mode, bytes *key) {
    put(key, &launch->site, sizeof launch->site);
    put(key, launch->kernel, strlen(launch->kernel) + 1);
    put(key, &launch->dims, sizeof launch->dims);
    put(key, launch->global, sizeof(int64_t) * (size_t)launch->dims);
    int has_local = launch->local != NULL;
    put(key, &has_local, sizeof has_local);
    if (has_local) {
        put(key, launch->local, sizeof(int64_t) * (size_t)launch->dims);
    }
    int resident_inputs = 0;
    for (int32_t i = 0; i < launch->nargs; i++) {
        const idiom_arg *arg = &launch->args[i];
        put(key, &arg->kind, sizeof arg->kind);
        put(key, &arg->bytes, sizeof arg->bytes);
        if (arg->kind == IDIOM_ARG_SCALAR) {
            put(key, arg->ptr, (size_t)arg->bytes);
        } else if (resident_arg(arg, resident_mode)) {
            if (is_output(arg->kind) || ++resident_inputs > MAX_INPUTS) {
                return 0;
            }
            put(key, &arg->ptr, sizeof arg->ptr);
        } else if (arg->kind == IDIOM_ARG_IN || is_output(arg->kind)) {
            if (arg->bytes > SMALL_BUFFER) {
                return 0;
            }
            if (arg->kind != IDIOM_ARG_OUT) {
                put(key, arg->ptr, (size_t)arg->bytes);
            }
        }
    }
    return !key->failed;
}

/* The stamps of the launch's inputs kept on `slot`, in argument order: 0 where one is not
   held there. */
static int stamp_inputs(const idiom_memo_launch *launch, int resident_mode,
                        stamped_input *inputs, int *count) {
    *count = 0;
    for (int32_t i = 0; i < launch->nargs; i++) {
        const idiom_arg *arg = &launch->args[i];
        if (!resident_arg(arg, resident_mode)) {
            continue;
        }
        stamped_input *input = &inputs[(*count)++];
        memset(input, 0, sizeof *input);
        input->lo = (uintptr_t)arg->ptr;
        input->hi = input->lo + (uintptr_t)arg->bytes;
        if (!idiom__resident_stamp(launch->slot, input->lo, input->hi, &input->stamp)) {
            return 0;
        }
    }
    return 1;
}

static size_t edge_len(const idiom_stamp *stamp, int k) {
    return stamp->edges[k][1] - stamp->edges[k][0];
}

/* The device copy a record read is the same, and the host's bytes on its edges too. */
static int unchanged(const stamped_input *kept, const idiom_stamp *now) {
    if (kept->stamp.id != now->id || kept->stamp.version != now->version) {
        return 0;
    }
    size_t at = 0;
    for (int k = 0; k < 2; k++) {
        size_t len = edge_len(now, k);
        if (len != edge_len(&kept->stamp, k) || now->edges[k][0] != kept->stamp.edges[k][0] ||
            (len > 0 && memcmp(kept->edges + at, (const void *)now->edges[k][0], len) != 0)) {
            return 0;
        }
        at += len;
    }
    return 1;
}

static void forget(record *r) {
    free(r->key);
    free(r->outputs);
    for (int i = 0; i < r->input_count; i++) {
        free(r->inputs[i].edges);
    }
    memset(r, 0, sizeof *r);
}

int idiom__memo_key(const idiom_memo_launch *launch, int resident_mode, idiom_memo_key *key) {
    bytes text = {0};
    if (!describe(launch, resident_mode, &text)) {
        free(text.data);
        return 0;
    }
    key->data = text.data;
    key->len = text.len;
    key->hash = idiom__fnv1a(IDIOM_FNV_START, text.data, text.len);
    return 1;
}

void idiom__memo_key_free(idiom_memo_key *key) {
    free(key->data);
    key->data = NULL;
}

static record *find(const idiom_memo_key *key) {
    for (int r = 0; r < RECORDS; r++) {
        record *rec = &records[r];
        if (rec->used && rec->hash == key->hash && rec->key_len == key->len &&
            memcmp(rec->key, key->data, key->len) == 0) {
            return rec;
        }
    }
    return NULL;
}

int idiom__memo_replay(const idiom_memo_launch *launch, int resident_mode,
                       const idiom_memo_key *key) {
    record *rec = find(key);
    stamped_input inputs[MAX_INPUTS];
    int count = 0;
    if (rec == NULL || !stamp_inputs(launch, resident_mode, inputs, &count) ||
        count != rec->input_count) {
        return 0;
    }
    for (int i = 0; i < count; i++) {
        if (!unchanged(&rec->inputs[i], &inputs[i].stamp)) {
            return 0;
        }
    }
    size_t at = 0; /* the outputs the check would write, written */
    for (int32_t i = 0; i < launch->nargs; i++) {
        const idiom_arg *arg = &launch->args[i];
        if (is_output(arg->kind) && !resident_arg(arg, resident_mode) && arg->bytes > 0) {
            /* as a launch would: no device copy keeps these bytes, nor protects their page */
            uintptr_t lo = (uintptr_t)arg->ptr;
            idiom_traffic traffic = {0.0, 0, 0, 0};
            if (idiom__resident_evict(lo, lo + (uintptr_t)arg->bytes, &traffic) != CL_SUCCESS) {
                return 0; /* nothing written yet but what an earlier output got: the launch
                             runs and writes them all */
            }
            memcpy(arg->ptr, rec->outputs + at, (size_t)arg->bytes);
            at += (size_t)arg->bytes;
        }
    }
    rec->last_used = ++uses;
    return 1;
}

/* The record to fill: a free one, else the least recently used. */
static record *room(void) {
    record *oldest = &records[0];
    for (int r = 0; r < RECORDS; r++) {
        if (!records[r].used) {
            return &records[r];
        }
        if (records[r].last_used < oldest->last_used) {
            oldest = &records[r];
        }
    }
    forget(oldest);
    return oldest;
}

/* Copies the host's bytes on the input's edges (its stamp taken). */
static int copy_edges(stamped_input *input) {
    size_t len = edge_len(&input->stamp, 0) + edge_len(&input->stamp, 1);
    input->edges = malloc(len > 0 ? len : 1);
    if (input->edges == NULL) {
        return 0;
    }
    memcpy(input->edges, (const void *)input->stamp.edges[0][0], edge_len(&input->stamp, 0));
    memcpy(input->edges + edge_len(&input->stamp, 0), (const void *)input->stamp.edges[1][0],
           edge_len(&input->stamp, 1));
    return 1;
}

void idiom__memo_keep(const idiom_memo_launch *launch, int resident_mode, idiom_memo_key *key) {
    record *old = find(key);
    if (old != NULL) {
        forget(old);
    }
    record *rec = room();
    int ok = stamp_inputs(launch, resident_mode, rec->inputs, &rec->input_count);
    for (int i = 0; ok && i < rec->input_count; i++) {
        ok = copy_edges(&rec->inputs[i]);
    }
    bytes outputs = {0};
    for (int32_t i = 0; ok && i < launch->nargs; i++) {
        const idiom_arg *arg = &launch->args[i];
        if (is_output(arg->kind) && !resident_arg(arg, resident_mode)) {
            put(&outputs, arg->ptr, (size_t)arg->bytes);
        }
    }
    if (!ok || outputs.failed) {
        free(outputs.data);
        forget(rec);
        return;
    }
    rec->used = 1;
    rec->hash = key->hash;
    rec->key = key->data; /* the record takes the key */
    rec->key_len = key->len;
    key->data = NULL;
    rec->outputs = outputs.data;
    rec->last_used = ++uses;
}
