#ifndef CFLOAT16_H
#define CFLOAT16_H
#include <stddef.h>
#include <stdint.h>

/// Converts `count` IEEE half-precision values to single precision.
/// `src` may be unaligned (model.bin stores tensors at odd offsets).
void cf16_to_f32(const void *src, float *dst, size_t count);

#endif
