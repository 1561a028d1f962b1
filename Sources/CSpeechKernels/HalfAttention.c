// Attention of a few float query rows (decoder steps: one per beam) over keys
// and values kept in half precision: the cross-attention cache of a window,
// which holds every layer's keys and values of 1500 audio positions (37 MB in
// float for whisper-base, 18 MB in half; whisper.cpp keeps it in half too).
// Products and sums are float32; each key or value row is widened once per
// call and used for every query row while it is in registers.
#include "CSpeechKernels.h"
#include "VectorSums.h"
#include <CFloat16.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

static void scores_portable(const uint16_t *k, int k_stride, int key_count, int width,
                            const float *q, int q_stride, int rows, float scale, float *scores) {
    float key[SK_HALF_ATTENTION_MAX_WIDTH];
    for (int j = 0; j < key_count; j++) {
        cf16_to_f32(k + (size_t)j * k_stride, key, (size_t)width);
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            float sum = 0;
            for (int d = 0; d < width; d++) sum += qr[d] * key[d];
            scores[(size_t)r * key_count + j] = sum * scale;
        }
    }
}

static void sums_portable(const uint16_t *v, int v_stride, int key_count, int width,
                          const float *p, int rows, float *out, int out_stride) {
    float value[SK_HALF_ATTENTION_MAX_WIDTH];
    for (int r = 0; r < rows; r++) memset(out + (size_t)r * out_stride, 0, sizeof(float) * (size_t)width);
    for (int j = 0; j < key_count; j++) {
        cf16_to_f32(v + (size_t)j * v_stride, value, (size_t)width);
        for (int r = 0; r < rows; r++) {
            const float weight = p[(size_t)r * key_count + j];
            float *o = out + (size_t)r * out_stride;
            for (int d = 0; d < width; d++) o[d] += weight * value[d];
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
enum { LANES = 8, MAX_VECTORS = SK_HALF_ATTENTION_MAX_WIDTH / LANES };

/// The sums of eight vectors' lanes, as one vector: `[Σ a[0], …, Σ a[7]]`.
__attribute__((target("avx2,fma,f16c")))
static __m256 lane_sums8(const __m256 a[8]) {
    const __m256 h01 = _mm256_hadd_ps(a[0], a[1]), h23 = _mm256_hadd_ps(a[2], a[3]);
    const __m256 h45 = _mm256_hadd_ps(a[4], a[5]), h67 = _mm256_hadd_ps(a[6], a[7]);
    const __m256 h0123 = _mm256_hadd_ps(h01, h23), h4567 = _mm256_hadd_ps(h45, h67);
    return _mm256_add_ps(_mm256_permute2f128_ps(h0123, h4567, 0x20), _mm256_permute2f128_ps(h0123, h4567, 0x31));
}

// Eight keys at a time: widened once into an L1 block, then each query row
// is dotted with all eight at once (eight independent accumulators, one
// reduction for the eight scores); a per-key horizontal sum was the
// kernel's cost before. Keys after the last full block go one by one.
__attribute__((target("avx2,fma,f16c")))
static void scores_avx2(const uint16_t *k, int k_stride, int key_count, int width,
                        const float *q, int q_stride, int rows, float scale, float *scores) {
    const int vectors = width / LANES;
    const __m256 scale8 = _mm256_set1_ps(scale);
    __m256 block[LANES][MAX_VECTORS];
    int j = 0;
    for (; j + LANES <= key_count; j += LANES) {
        for (int key = 0; key < LANES; key++) {
            const uint16_t *row = k + (size_t)(j + key) * k_stride;
            for (int i = 0; i < vectors; i++)
                block[key][i] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + i * LANES)));
        }
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            __m256 acc[LANES];
            for (int key = 0; key < LANES; key++) acc[key] = _mm256_setzero_ps();
            for (int i = 0; i < vectors; i++) {
                const __m256 qv = _mm256_loadu_ps(qr + i * LANES);
                for (int key = 0; key < LANES; key++) acc[key] = _mm256_fmadd_ps(block[key][i], qv, acc[key]);
            }
            _mm256_storeu_ps(scores + (size_t)r * key_count + j, _mm256_mul_ps(lane_sums8(acc), scale8));
        }
    }
    for (; j < key_count; j++) {
        const uint16_t *row = k + (size_t)j * k_stride;
        for (int i = 0; i < vectors; i++) block[0][i] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + i * LANES)));
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            __m256 acc = _mm256_setzero_ps();
            for (int i = 0; i < vectors; i++) acc = _mm256_fmadd_ps(block[0][i], _mm256_loadu_ps(qr + i * LANES), acc);
            scores[(size_t)r * key_count + j] = sk_horizontal_sum(acc) * scale;
        }
    }
}

__attribute__((target("avx2,fma,f16c")))
static void sums_avx2(const uint16_t *v, int v_stride, int key_count, int width,
                      const float *p, int rows, float *out, int out_stride) {
    const int vectors = width / LANES;
    for (int r = 0; r < rows; r++) {
        const float *pr = p + (size_t)r * key_count;
        __m256 sum[MAX_VECTORS];
        for (int i = 0; i < vectors; i++) sum[i] = _mm256_setzero_ps();
        for (int j = 0; j < key_count; j++) {
            const __m256 weight = _mm256_broadcast_ss(pr + j);
            const uint16_t *row = v + (size_t)j * v_stride;
            for (int i = 0; i < vectors; i++)
                sum[i] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + i * LANES))), weight, sum[i]);
        }
        float *o = out + (size_t)r * out_stride;
        for (int i = 0; i < vectors; i++) _mm256_storeu_ps(o + i * LANES, sum[i]);
    }
}
#endif

int sk_half_attention_vectorized(int width) {
#if defined(__x86_64__) || defined(__i386__)
    return width % 8 == 0 && width <= SK_HALF_ATTENTION_MAX_WIDTH && sk_half_gemv_vectorized()
        && __builtin_cpu_supports("f16c");
#else
    (void)width;
    return 0;
#endif
}

void sk_attention_scores_f16(int vectorized, const uint16_t *k, int k_stride, int key_count, int width,
                             const float *q, int q_stride, int rows, float scale, float *scores) {
#if defined(__x86_64__) || defined(__i386__)
    if (vectorized && sk_half_attention_vectorized(width)) {
        scores_avx2(k, k_stride, key_count, width, q, q_stride, rows, scale, scores);
        return;
    }
#endif
    scores_portable(k, k_stride, key_count, width, q, q_stride, rows, scale, scores);
}

void sk_attention_sums_f16(int vectorized, const uint16_t *v, int v_stride, int key_count, int width,
                           const float *p, int rows, float *out, int out_stride) {
#if defined(__x86_64__) || defined(__i386__)
    if (vectorized && sk_half_attention_vectorized(width)) {
        sums_avx2(v, v_stride, key_count, width, p, rows, out, out_stride);
        return;
    }
#endif
    sums_portable(v, v_stride, key_count, width, p, rows, out, out_stride);
}
