/* Values computed from read-only memory, remembered while it is not written (idiom_watch.c);
 * not part of the ABI. */
#ifndef IDIOM_WATCH_H
#define IDIOM_WATCH_H

#include "idiom_internal.h"

/* compute(context), a value read from the bytes [lo, hi) and nothing else, or the value it
   gave last time for the same bytes and `tag` where the kernel says none of them was written
   since. `tag` names what is computed (an element type, a shape, a kind of bound). */
IDIOM_HIDDEN double idiom__watched_value(const void *lo, const void *hi, uint64_t tag,
                                         double (*compute)(const void *context),
                                         const void *context);

/* How many values were remembered rather than computed, in this process so far. */
IDIOM_HIDDEN long idiom__watch_recalls(void);

#endif
