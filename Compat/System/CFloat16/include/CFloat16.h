#ifndef CFLOAT16_H
#define CFLOAT16_H
#include <stddef.h>
#include <stdint.h>

/// Converts `count` IEEE half-precision values to single precision.
/// `src` may be unaligned (model.bin stores tensors at odd offsets).
void cf16_to_f32(const void *src, float *dst, size_t count);

/// Converts `count` single-precision values to IEEE half precision, rounding
/// to nearest even (values beyond ±65504 become ±infinity, NaN stays NaN).
void cf32_to_f16(const float *src, uint16_t *dst, size_t count);

/// `cf32_to_f16` without F16C (what a CPU without it runs; for tests).
void cf32_to_f16_portable(const float *src, uint16_t *dst, size_t count);

#endif
