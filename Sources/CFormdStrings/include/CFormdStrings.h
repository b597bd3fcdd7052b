// JSON string bytes sixteen at a time, with the SSE2 byte compares every x86-64 processor
// has: Swift's SIMD types compile these compares lane by lane. Inlined at each use.
#ifndef CFORMD_STRINGS_H
#define CFORMD_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// 0xFF in each byte of `v` that a writer must escape (`"`, `\`, anything below 0x20), 0
/// elsewhere. `"` xor 2 is 0x20 and xor 2 keeps the control characters below it, so one
/// unsigned compare finds both.
static inline __attribute__((always_inline)) __m128i formd_escapes(__m128i v) {
    __m128i flipped = _mm_xor_si128(v, _mm_set1_epi8(0x02));
    __m128i controlOrQuote = _mm_cmpeq_epi8(_mm_min_epu8(flipped, _mm_set1_epi8(0x20)), flipped);
    return _mm_or_si128(controlOrQuote, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
}

/// Copies the `count` >= 16 bytes at `source` to `target` as far as none needs escaping
/// and returns how far that is; it may copy further, within `count`. Thirty-two bytes a
/// turn, then sixteen, the last sixteen overlapping bytes already found clean.
static inline __attribute__((always_inline))
size_t formd_copy_clean16(const uint8_t *_Nonnull source, size_t count, uint8_t *_Nonnull target) {
    size_t i = 0;
    while (count - i >= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)(source + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(source + i + 16));
        _mm_storeu_si128((__m128i *)(target + i), a);
        _mm_storeu_si128((__m128i *)(target + i + 16), b);
        __m128i ea = formd_escapes(a), eb = formd_escapes(b);
        if (_mm_movemask_epi8(_mm_or_si128(ea, eb)) != 0) {
            unsigned bits = (unsigned)_mm_movemask_epi8(ea) | (unsigned)_mm_movemask_epi8(eb) << 16;
            return i + (size_t)__builtin_ctz(bits);
        }
        i += 32;
    }
    while (i < count) {
        if (count - i < 16) i = count - 16;
        __m128i v = _mm_loadu_si128((const __m128i *)(source + i));
        _mm_storeu_si128((__m128i *)(target + i), v);
        unsigned bits = (unsigned)_mm_movemask_epi8(formd_escapes(v));
        if (bits != 0) return i + (size_t)__builtin_ctz(bits);
        i += 16;
    }
    return count;
}

/// The first of the bytes from `p` to `end` that a string scanner must stop at (an
/// escape, a control character, a quote, any non-ASCII byte), as far as whole sixteen-byte
/// runs reach; `p` past the last whole run when none of them holds one.
static inline __attribute__((always_inline))
const uint8_t *_Nonnull formd_attention16(const uint8_t *_Nonnull p, const uint8_t *_Nonnull end) {
    while (end - p >= 32) {
        __m128i a = _mm_loadu_si128((const __m128i *)p);
        __m128i b = _mm_loadu_si128((const __m128i *)(p + 16));
        // A non-ASCII byte has its top bit set, which the mask takes as it is.
        __m128i fa = _mm_or_si128(formd_escapes(a), a), fb = _mm_or_si128(formd_escapes(b), b);
        if (_mm_movemask_epi8(_mm_or_si128(fa, fb)) != 0) {
            unsigned bits = (unsigned)_mm_movemask_epi8(fa) | (unsigned)_mm_movemask_epi8(fb) << 16;
            return p + __builtin_ctz(bits);
        }
        p += 32;
    }
    if (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        unsigned bits = (unsigned)_mm_movemask_epi8(_mm_or_si128(formd_escapes(v), v));
        if (bits != 0) return p + __builtin_ctz(bits);
        p += 16;
    }
    return p;
}
#endif

#endif
