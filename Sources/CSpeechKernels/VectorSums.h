// Internal to CSpeechKernels: helpers the AVX2 forms of several kernels share.
#ifndef CSPEECHKERNELS_VECTORSUMS_H
#define CSPEECHKERNELS_VECTORSUMS_H
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/// Whether the CPU runs the kernels' AVX-512 forms (F for the arithmetic,
/// DQ for the 256-bit halves of a 512-bit register).
static inline int sk_avx512_supported(void) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
}

/// The sum of a vector's eight floats.
__attribute__((target("avx2,fma")))
static inline float sk_horizontal_sum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
#endif
#endif
