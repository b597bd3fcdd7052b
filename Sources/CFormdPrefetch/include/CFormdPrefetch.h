// A prefetch hint, which Swift cannot spell: the compiler's builtin, inlined at each use.
#ifndef CFORMD_PREFETCH_H
#define CFORMD_PREFETCH_H

/// Asks the processor to bring the cache line holding `p` in for reading; never faults.
static inline __attribute__((always_inline)) void formd_prefetch(const void *p) {
    __builtin_prefetch(p, 0, 3);
}

#endif
