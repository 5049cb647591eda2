/* Checks not launched again while their inputs are unchanged (idiom_memo.c); not part of the
 * ABI.
 *
 * A check (a launch with a negative work: idiom_runtime.h) finds the range of indices a
 * sparse product or a histogram will use, from arrays an iterative program rarely changes
 * (a matrix's structure). Launching it again on the same device copies, with the same scalars
 * and small host buffers, gives the same small outputs: they are remembered and written
 * again instead, so that an iteration of a solver pays its product only. Same copies: the
 * entries holding them are the ones the check read (by id), no kernel wrote into them and the
 * host refreshed none (version), and the host's bytes on their partial pages, which no
 * protection watches, are equal. A check writing a device copy, or a large host buffer, is
 * not remembered.
 *
 * Every function here is called with the residency lock held.
 */
#ifndef IDIOM_MEMO_H
#define IDIOM_MEMO_H

#include "idiom_resident.h"

typedef struct {
    uint64_t site; /* the kernel source's hash */
    const char *kernel;
    int slot;
    int32_t dims;
    const int64_t *global;
    const int64_t *local; /* or NULL */
    int32_t nargs;
    const idiom_arg *args;
} idiom_memo_launch;

typedef struct {
    unsigned char *data;
    size_t len;
    uint64_t hash;
} idiom_memo_key;

/* The launch's key, taken before it runs: 1, or 0 when it cannot be remembered. */
IDIOM_HIDDEN int idiom__memo_key(const idiom_memo_launch *launch, int resident_mode,
                                 idiom_memo_key *key);
IDIOM_HIDDEN void idiom__memo_key_free(idiom_memo_key *key);

/* 1 after writing the outputs an earlier launch with this key wrote, its inputs unchanged;
   0 otherwise (nothing written). */
IDIOM_HIDDEN int idiom__memo_replay(const idiom_memo_launch *launch, int resident_mode,
                                    const idiom_memo_key *key);

/* Remembers a launch that completed, with the key taken before it (which the record takes). */
IDIOM_HIDDEN void idiom__memo_keep(const idiom_memo_launch *launch, int resident_mode,
                                   idiom_memo_key *key);

#endif /* IDIOM_MEMO_H */
