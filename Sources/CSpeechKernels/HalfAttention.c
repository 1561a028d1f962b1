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

/// Scores of keys `first ..< key_count` one key at a time (the keys after
/// the last block of eight).
__attribute__((target("avx2,fma,f16c")))
static void scores_one_by_one(const uint16_t *k, int k_stride, int first, int key_count, int width,
                              const float *q, int q_stride, int rows, float scale, float *scores) {
    const int vectors = width / LANES;
    __m256 key[MAX_VECTORS];
    for (int j = first; j < key_count; j++) {
        const uint16_t *row = k + (size_t)j * k_stride;
        for (int i = 0; i < vectors; i++) key[i] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + i * LANES)));
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            __m256 acc = _mm256_setzero_ps();
            for (int i = 0; i < vectors; i++) acc = _mm256_fmadd_ps(key[i], _mm256_loadu_ps(qr + i * LANES), acc);
            scores[(size_t)r * key_count + j] = sk_horizontal_sum(acc) * scale;
        }
    }
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
    scores_one_by_one(k, k_stride, j, key_count, width, q, q_stride, rows, scale, scores);
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

// AVX-512 forms, the same bits as the AVX2 ones: a 16-lane register holds
// two keys' 8 lanes side by side for the scores (each lane sums its products
// in the AVX2 order and the halves meet in the same reduction), and 16
// output columns for the sums (each lane one output, summed over the keys in
// order). Every query row uses each widened key or value while it is in a
// register; six rows' accumulators fit in the 32 registers.
enum { WIDE_ROWS = 6, WIDE_WIDTH = 64 };
#define AVX512 __attribute__((target("avx2,fma,f16c,avx512f,avx512dq")))

/// Scores of `rows` (≤ 6, a constant at each call) query rows against keys
/// `j ..< j + 8` for a head of 64 (a constant, so the accumulators stay in registers).
static inline AVX512 __attribute__((always_inline)) void
scores_block_wide(const int rows, const uint16_t *k, int k_stride, int j, const float *q, int q_stride,
                  int key_count, __m256 scale8, float *scores) {
    const int vectors = WIDE_WIDTH / LANES;
    __m512 acc[WIDE_ROWS][LANES / 2];
    for (int r = 0; r < rows; r++)
        for (int m = 0; m < LANES / 2; m++) acc[r][m] = _mm512_setzero_ps();
    for (int i = 0; i < vectors; i++) {
        __m512 pair[LANES / 2];
        for (int m = 0; m < LANES / 2; m++) {
            const __m128i low = _mm_loadu_si128((const __m128i *)(k + (size_t)(j + 2 * m) * k_stride + i * LANES));
            const __m128i high = _mm_loadu_si128((const __m128i *)(k + (size_t)(j + 2 * m + 1) * k_stride + i * LANES));
            pair[m] = _mm512_cvtph_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1));
        }
        for (int r = 0; r < rows; r++) {
            const __m512 qv = _mm512_broadcast_f32x8(_mm256_loadu_ps(q + (size_t)r * q_stride + i * LANES));
            for (int m = 0; m < LANES / 2; m++) acc[r][m] = _mm512_fmadd_ps(pair[m], qv, acc[r][m]);
        }
    }
    for (int r = 0; r < rows; r++) {
        __m256 keys[LANES];
        for (int m = 0; m < LANES / 2; m++) {
            keys[2 * m] = _mm512_castps512_ps256(acc[r][m]);
            keys[2 * m + 1] = _mm512_extractf32x8_ps(acc[r][m], 1);
        }
        _mm256_storeu_ps(scores + (size_t)r * key_count + j, _mm256_mul_ps(lane_sums8(keys), scale8));
    }
}

static AVX512 void scores_avx512(const uint16_t *k, int k_stride, int key_count, int width,
                                 const float *q, int q_stride, int rows, float scale, float *scores) {
    const __m256 scale8 = _mm256_set1_ps(scale);
    (void)width;   // WIDE_WIDTH: wide_attention checked it
    const int blocks = key_count / LANES * LANES;
    for (int r0 = 0; r0 < rows; r0 += WIDE_ROWS) {
        const int count = rows - r0 < WIDE_ROWS ? rows - r0 : WIDE_ROWS;
        const float *qr = q + (size_t)r0 * q_stride;
        float *out = scores + (size_t)r0 * key_count;
        for (int j = 0; j < blocks; j += LANES) {
            switch (count) {
            case 1: scores_block_wide(1, k, k_stride, j, qr, q_stride, key_count, scale8, out); break;
            case 2: scores_block_wide(2, k, k_stride, j, qr, q_stride, key_count, scale8, out); break;
            case 3: scores_block_wide(3, k, k_stride, j, qr, q_stride, key_count, scale8, out); break;
            case 4: scores_block_wide(4, k, k_stride, j, qr, q_stride, key_count, scale8, out); break;
            case 5: scores_block_wide(5, k, k_stride, j, qr, q_stride, key_count, scale8, out); break;
            default: scores_block_wide(6, k, k_stride, j, qr, q_stride, key_count, scale8, out); break;
            }
        }
    }
    // Keys after the last block of eight, one by one as the AVX2 form takes them.
    scores_one_by_one(k, k_stride, blocks, key_count, WIDE_WIDTH, q, q_stride, rows, scale, scores);
}

/// Sums of `rows` (≤ 6, a constant at each call) weight rows over every key
/// for a head of 64.
static inline AVX512 __attribute__((always_inline)) void
sums_rows_wide(const int rows, const uint16_t *v, int v_stride, int key_count, const float *p,
               float *out, int out_stride) {
    const int vectors = WIDE_WIDTH / 16;
    __m512 sum[WIDE_ROWS][4];
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < 4; i++) sum[r][i] = _mm512_setzero_ps();
    for (int j = 0; j < key_count; j++) {
        const uint16_t *row = v + (size_t)j * v_stride;
        __m512 value[4];
        for (int i = 0; i < vectors; i++)
            value[i] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(row + i * 16)));
        for (int r = 0; r < rows; r++) {
            const __m512 weight = _mm512_set1_ps(p[(size_t)r * key_count + j]);
            for (int i = 0; i < vectors; i++) sum[r][i] = _mm512_fmadd_ps(value[i], weight, sum[r][i]);
        }
    }
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < vectors; i++) _mm512_storeu_ps(out + (size_t)r * out_stride + i * 16, sum[r][i]);
}

static AVX512 void sums_avx512(const uint16_t *v, int v_stride, int key_count, int width,
                               const float *p, int rows, float *out, int out_stride) {
    (void)width;   // WIDE_WIDTH: wide_attention checked it
    for (int r0 = 0; r0 < rows; r0 += WIDE_ROWS) {
        const int count = rows - r0 < WIDE_ROWS ? rows - r0 : WIDE_ROWS;
        const float *pr = p + (size_t)r0 * key_count;
        float *o = out + (size_t)r0 * out_stride;
        switch (count) {
        case 1: sums_rows_wide(1, v, v_stride, key_count, pr, o, out_stride); break;
        case 2: sums_rows_wide(2, v, v_stride, key_count, pr, o, out_stride); break;
        case 3: sums_rows_wide(3, v, v_stride, key_count, pr, o, out_stride); break;
        case 4: sums_rows_wide(4, v, v_stride, key_count, pr, o, out_stride); break;
        case 5: sums_rows_wide(5, v, v_stride, key_count, pr, o, out_stride); break;
        default: sums_rows_wide(6, v, v_stride, key_count, pr, o, out_stride); break;
        }
    }
}

/// Whether the AVX-512 forms take heads of `width` (whisper's 64) on this CPU.
static int wide_attention(int width) {
    return width == WIDE_WIDTH && sk_avx512_supported();
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
        if (vectorized > 1 && wide_attention(width))
            scores_avx512(k, k_stride, key_count, width, q, q_stride, rows, scale, scores);
        else
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
        if (vectorized > 1 && wide_attention(width)) sums_avx512(v, v_stride, key_count, width, p, rows, out, out_stride);
        else sums_avx2(v, v_stride, key_count, width, p, rows, out, out_stride);
        return;
    }
#endif
    sums_portable(v, v_stride, key_count, width, p, rows, out, out_stride);
}
