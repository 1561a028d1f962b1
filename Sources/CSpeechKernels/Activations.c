// Softmax, log-sum-exp and GELU with AVX2 or AVX-512, the same bits as the
// engine's Swift reference (`VectorMath`): Swift compiles its 8-lane SIMD
// code for baseline x86-64 (SSE, four lanes an instruction) and the exp
// polynomial ran at a fraction of the CPU's width (the encoder's attention
// takes 108 M exps a window, its GELU 18 M). These run the same operations
// in the same order: the polynomials with separate multiplies and adds (no
// FMA, whose single rounding would change the bits), a row's sum in eight
// lanes over the blocks of eight in order, the lanes added first to last,
// the tail after them. AVX-512 computes two blocks at once and adds them in
// that order.
#include "include/CSpeechKernels.h"
#include "VectorSums.h"
#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx2,avx512f,avx512dq")))

/// VectorMath.exp over eight lanes.
static inline AVX2 __attribute__((always_inline)) __m256 exp8(__m256 x) {
    const __m256 low = _mm256_set1_ps(-87.3f), high = _mm256_set1_ps(88.3f);
    __m256 clamped = _mm256_blendv_ps(x, low, _mm256_cmp_ps(x, low, _CMP_LT_OQ));
    clamped = _mm256_blendv_ps(clamped, high, _mm256_cmp_ps(clamped, high, _CMP_GT_OQ));
    const __m256 magic = _mm256_set1_ps(12582912.0f);
    const __m256 shifted = _mm256_add_ps(_mm256_mul_ps(clamped, _mm256_set1_ps(1.442695040888963f)), magic);
    const __m256 n = _mm256_sub_ps(shifted, magic);
    __m256 r = _mm256_sub_ps(clamped, _mm256_mul_ps(n, _mm256_set1_ps(0.693359375f)));
    r = _mm256_add_ps(r, _mm256_mul_ps(n, _mm256_set1_ps(2.12194440e-4f)));
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_add_ps(_mm256_mul_ps(p, r), _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(p, r), r), r), _mm256_set1_ps(1.0f));
    const __m256i bits = _mm256_sub_epi32(_mm256_castps_si256(shifted), _mm256_set1_epi32(0x4B400000));
    const __m256 scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(127)), 23));
    return _mm256_blendv_ps(_mm256_mul_ps(p, scale), _mm256_setzero_ps(), _mm256_cmp_ps(x, low, _CMP_LT_OQ));
}

/// VectorMath.exp over sixteen lanes.
static inline AVX512 __attribute__((always_inline)) __m512 exp16(__m512 x) {
    const __m512 low = _mm512_set1_ps(-87.3f), high = _mm512_set1_ps(88.3f);
    const __mmask16 below = _mm512_cmp_ps_mask(x, low, _CMP_LT_OQ);
    __m512 clamped = _mm512_mask_blend_ps(below, x, low);
    clamped = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(clamped, high, _CMP_GT_OQ), clamped, high);
    const __m512 magic = _mm512_set1_ps(12582912.0f);
    const __m512 shifted = _mm512_add_ps(_mm512_mul_ps(clamped, _mm512_set1_ps(1.442695040888963f)), magic);
    const __m512 n = _mm512_sub_ps(shifted, magic);
    __m512 r = _mm512_sub_ps(clamped, _mm512_mul_ps(n, _mm512_set1_ps(0.693359375f)));
    r = _mm512_add_ps(r, _mm512_mul_ps(n, _mm512_set1_ps(2.12194440e-4f)));
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_add_ps(_mm512_mul_ps(p, r), _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(p, r), r), r), _mm512_set1_ps(1.0f));
    const __m512i bits = _mm512_sub_epi32(_mm512_castps_si512(shifted), _mm512_set1_epi32(0x4B400000));
    const __m512 scale = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(127)), 23));
    return _mm512_mask_blend_ps(below, _mm512_mul_ps(p, scale), _mm512_setzero_ps());
}

/// Lanes added first to last from -0, as Swift's `SIMD.sum()` does.
static inline AVX2 __attribute__((always_inline)) float lane_sum(__m256 v) {
    float lanes[8];
    _mm256_storeu_ps(lanes, v);
    float sum = -0.0f;
    for (int i = 0; i < 8; i++) sum += lanes[i];
    return sum;
}

/// The largest value (-inf for none), ignoring NaN as the reference does.
static AVX2 float maximum8(const float *values, int count) {
    __m256 best = _mm256_set1_ps(-INFINITY);
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        // MAXPS(v, best) is `v > best ? v : best`: the reference's
        // `best.replacing(with: v, where: v .> best)`, NaN included.
        best = _mm256_max_ps(_mm256_loadu_ps(values + i), best);
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, best);
    float result = lanes[0];
    for (int j = 1; j < 8; j++) result = lanes[j] >= result ? lanes[j] : result;   // SIMD.max(): Swift.max lane by lane
    for (; i < count; i++) result = values[i] >= result ? values[i] : result;     // Swift.max(result, v)
    return result;
}

/// Σ exp(values[j] - shift) for the blocks of eight from `i` on and the
/// tail, continuing `sums`: writes each exp back when `store`.
static inline AVX2 __attribute__((always_inline)) float exp_sum_from(float *values, int i, int count, float shift,
                                                                     int store, __m256 sums) {
    const __m256 shift8 = _mm256_set1_ps(shift);
    for (; i + 8 <= count; i += 8) {
        const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(values + i), shift8));
        if (store) _mm256_storeu_ps(values + i, e);
        sums = _mm256_add_ps(sums, e);
    }
    float sum = lane_sum(sums);
    if (i < count) {
        // The tail one value at a time, through the same polynomial.
        float tail[8] = {0};
        for (int j = i; j < count; j++) tail[j - i] = values[j] - shift;
        float e[8];
        _mm256_storeu_ps(e, exp8(_mm256_loadu_ps(tail)));
        for (int j = i; j < count; j++) {
            if (store) values[j] = e[j - i];
            sum += e[j - i];
        }
    }
    return sum;
}

static AVX2 float exp_sum_avx2(float *values, int count, float shift, int store) {
    return exp_sum_from(values, 0, count, shift, store, _mm256_setzero_ps());
}

/// Two blocks' exps per instruction, added to the sums block by block.
static AVX512 float exp_sum_avx512(float *values, int count, float shift, int store) {
    __m256 sums = _mm256_setzero_ps();
    const __m512 shift16 = _mm512_set1_ps(shift);
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m512 e = exp16(_mm512_sub_ps(_mm512_loadu_ps(values + i), shift16));
        if (store) _mm512_storeu_ps(values + i, e);
        sums = _mm256_add_ps(sums, _mm512_castps512_ps256(e));
        sums = _mm256_add_ps(sums, _mm512_extractf32x8_ps(e, 1));
    }
    return exp_sum_from(values, i, count, shift, store, sums);
}

static float exp_sum_best(int form, float *values, int count, float shift, int store) {
    if (form > 1 && sk_avx512_supported())
        return exp_sum_avx512(values, count, shift, store);
    return exp_sum_avx2(values, count, shift, store);
}

/// VectorMath.gelu over eight lanes (erf by Abramowitz–Stegun 7.1.26).
static inline AVX2 __attribute__((always_inline)) __m256 gelu8(__m256 x) {
    const __m256 z = _mm256_mul_ps(x, _mm256_set1_ps(0.70710678118654752f));
    const __m256 a = _mm256_and_ps(z, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 t = _mm256_div_ps(one, _mm256_add_ps(one, _mm256_mul_ps(_mm256_set1_ps(0.3275911f), a)));
    __m256 poly = _mm256_set1_ps(1.061405429f);
    poly = _mm256_sub_ps(_mm256_mul_ps(poly, t), _mm256_set1_ps(1.453152027f));
    poly = _mm256_add_ps(_mm256_mul_ps(poly, t), _mm256_set1_ps(1.421413741f));
    poly = _mm256_sub_ps(_mm256_mul_ps(poly, t), _mm256_set1_ps(0.284496736f));
    poly = _mm256_add_ps(_mm256_mul_ps(poly, t), _mm256_set1_ps(0.254829592f));
    poly = _mm256_mul_ps(poly, t);
    // -(a * a): a sign flip, as Swift's prefix minus.
    const __m256 minus_square = _mm256_xor_ps(_mm256_mul_ps(a, a), _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000)));
    const __m256 erf_abs = _mm256_sub_ps(one, _mm256_mul_ps(poly, exp8(minus_square)));
    const __m256 erf_neg = _mm256_xor_ps(erf_abs, _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000)));
    const __m256 erf = _mm256_blendv_ps(erf_abs, erf_neg, _mm256_cmp_ps(z, _mm256_setzero_ps(), _CMP_LT_OQ));
    return _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(0.5f), x), _mm256_add_ps(one, erf));
}

static inline AVX2 __attribute__((always_inline)) void gelu_from(float *values, long i, long count) {
    for (; i + 8 <= count; i += 8) _mm256_storeu_ps(values + i, gelu8(_mm256_loadu_ps(values + i)));
    if (i < count) {
        float tail[8] = {0};
        for (long j = i; j < count; j++) tail[j - i] = values[j];
        float out[8];
        _mm256_storeu_ps(out, gelu8(_mm256_loadu_ps(tail)));
        for (long j = i; j < count; j++) values[j] = out[j - i];
    }
}

static AVX2 void gelu_avx2(float *values, long count) { gelu_from(values, 0, count); }

/// VectorMath.gelu over sixteen lanes.
static inline AVX512 __attribute__((always_inline)) __m512 gelu16(__m512 x) {
    const __m512 z = _mm512_mul_ps(x, _mm512_set1_ps(0.70710678118654752f));
    const __m512 a = _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(z), _mm512_set1_epi32(0x7fffffff)));
    const __m512 one = _mm512_set1_ps(1.0f);
    const __m512 t = _mm512_div_ps(one, _mm512_add_ps(one, _mm512_mul_ps(_mm512_set1_ps(0.3275911f), a)));
    __m512 poly = _mm512_set1_ps(1.061405429f);
    poly = _mm512_sub_ps(_mm512_mul_ps(poly, t), _mm512_set1_ps(1.453152027f));
    poly = _mm512_add_ps(_mm512_mul_ps(poly, t), _mm512_set1_ps(1.421413741f));
    poly = _mm512_sub_ps(_mm512_mul_ps(poly, t), _mm512_set1_ps(0.284496736f));
    poly = _mm512_add_ps(_mm512_mul_ps(poly, t), _mm512_set1_ps(0.254829592f));
    poly = _mm512_mul_ps(poly, t);
    const __m512i sign = _mm512_set1_epi32((int)0x80000000);
    const __m512 minus_square = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(_mm512_mul_ps(a, a)), sign));
    const __m512 erf_abs = _mm512_sub_ps(one, _mm512_mul_ps(poly, exp16(minus_square)));
    const __m512 erf_neg = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(erf_abs), sign));
    const __m512 erf = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(z, _mm512_setzero_ps(), _CMP_LT_OQ), erf_abs, erf_neg);
    return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), x), _mm512_add_ps(one, erf));
}

static AVX512 void gelu_avx512(float *values, long count) {
    long i = 0;
    for (; i + 16 <= count; i += 16) _mm512_storeu_ps(values + i, gelu16(_mm512_loadu_ps(values + i)));
    gelu_from(values, i, count);
}

void sk_gelu(int form, float *values, long count) {
    if (form > 1 && sk_avx512_supported()) gelu_avx512(values, count);
    else gelu_avx2(values, count);
}

int sk_softmax_vectorized(void) { return __builtin_cpu_supports("avx2"); }

void sk_softmax(int form, float *row, int count) {
    const float max_value = maximum8(row, count);
    if (!(max_value > -INFINITY)) return;
    const float inverse = 1.0f / exp_sum_best(form, row, count, max_value, 1);
    for (int j = 0; j < count; j++) row[j] *= inverse;
}

float sk_log_sum_exp(int form, const float *values, int count) {
    const float max_value = maximum8(values, count);
    if (!(max_value > -INFINITY)) return -INFINITY;
    // store == 0: the values are only read.
    return max_value + logf(exp_sum_best(form, (float *)values, count, max_value, 0));
}
#else
int sk_softmax_vectorized(void) { return 0; }
void sk_softmax(int form, float *row, int count) { (void)form; (void)row; (void)count; }
float sk_log_sum_exp(int form, const float *values, int count) { (void)form; (void)values; (void)count; return 0; }
void sk_gelu(int form, float *values, long count) { (void)form; (void)values; (void)count; }
#endif
