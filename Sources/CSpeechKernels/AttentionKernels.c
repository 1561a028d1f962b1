// Attention of a few float query rows (decoder steps: one per beam) over key
// and value rows in float (the self-attention cache), half (the
// cross-attention cache of a window: every layer's keys and values of 1500
// audio positions, 37 MB in float for whisper-base, 18 MB in half) or int8
// with one scale per row (the cross-attention cache of int8-mixed, 9 MB).
// Products and sums are float32; each key or value row is widened once per
// call and used for every query row while it is in registers. One body per
// form serves every element type: the type is a constant at each
// instantiation, so only the row loads differ.
#include "CSpeechKernels.h"
#include "VectorSums.h"
#include <CFloat16.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/// Row `j` of `base` widened to float (the portable forms).
static void widen_row(sk_element element, const void *base, int stride, int j, int width, float *out) {
    switch (element) {
    case SK_ELEMENT_FLOAT: memcpy(out, (const float *)base + (size_t)j * stride, sizeof(float) * (size_t)width); break;
    case SK_ELEMENT_HALF: cf16_to_f32((const uint16_t *)base + (size_t)j * stride, out, (size_t)width); break;
    case SK_ELEMENT_INT8: {
        const int8_t *row = (const int8_t *)base + (size_t)j * stride;
        for (int d = 0; d < width; d++) out[d] = (float)row[d];
        break;
    }
    }
}

static void scores_portable(sk_element element, const void *k, const float *k_scales, int k_stride, int key_count,
                            int width, const float *q, int q_stride, int rows, float scale, float *scores,
                            int scores_stride) {
    float key[SK_ATTENTION_MAX_WIDTH];
    for (int j = 0; j < key_count; j++) {
        widen_row(element, k, k_stride, j, width, key);
        const float factor = k_scales ? scale * k_scales[j] : scale;
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            float sum = 0;
            for (int d = 0; d < width; d++) sum += qr[d] * key[d];
            scores[(size_t)r * scores_stride + j] = sum * factor;
        }
    }
}

static void sums_portable(sk_element element, const void *v, const float *v_scales, int v_stride, int key_count,
                          int width, const float *p, int p_stride, int rows, int accumulate, float *out,
                          int out_stride) {
    float value[SK_ATTENTION_MAX_WIDTH];
    if (!accumulate)
        for (int r = 0; r < rows; r++) memset(out + (size_t)r * out_stride, 0, sizeof(float) * (size_t)width);
    for (int j = 0; j < key_count; j++) {
        widen_row(element, v, v_stride, j, width, value);
        for (int r = 0; r < rows; r++) {
            const float weight = v_scales ? p[(size_t)r * p_stride + j] * v_scales[j] : p[(size_t)r * p_stride + j];
            float *o = out + (size_t)r * out_stride;
            for (int d = 0; d < width; d++) o[d] += weight * value[d];
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
enum { LANES = 8, MAX_VECTORS = SK_ATTENTION_MAX_WIDTH / LANES };
#define AVX2 __attribute__((target("avx2,fma,f16c")))
#define INLINE static inline __attribute__((always_inline))

/// Eight values of row `j` from column `column`, as float.
INLINE AVX2 __m256 load8(const sk_element element, const void *base, int stride, int j, int column) {
    const size_t at = (size_t)j * stride + column;
    switch (element) {
    case SK_ELEMENT_FLOAT: return _mm256_loadu_ps((const float *)base + at);
    case SK_ELEMENT_HALF: return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)((const uint16_t *)base + at)));
    default: return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)((const int8_t *)base + at))));
    }
}

/// The sums of eight vectors' lanes, as one vector: `[Σ a[0], …, Σ a[7]]`.
INLINE AVX2 __m256 lane_sums8(const __m256 a[8]) {
    const __m256 h01 = _mm256_hadd_ps(a[0], a[1]), h23 = _mm256_hadd_ps(a[2], a[3]);
    const __m256 h45 = _mm256_hadd_ps(a[4], a[5]), h67 = _mm256_hadd_ps(a[6], a[7]);
    const __m256 h0123 = _mm256_hadd_ps(h01, h23), h4567 = _mm256_hadd_ps(h45, h67);
    return _mm256_add_ps(_mm256_permute2f128_ps(h0123, h4567, 0x20), _mm256_permute2f128_ps(h0123, h4567, 0x31));
}

/// The factors of keys `j ..< j + 8`: `scale`, times each key's scale where rows have one.
INLINE AVX2 __m256 factors8(const float *k_scales, int j, __m256 scale8) {
    return k_scales ? _mm256_mul_ps(scale8, _mm256_loadu_ps(k_scales + j)) : scale8;
}

/// Scores of keys `first ..< key_count` one key at a time (the keys after
/// the last block of eight).
INLINE AVX2 void scores_one_by_one(const sk_element element, const void *k, const float *k_scales, int k_stride,
                                   int first, int key_count, int width, const float *q, int q_stride, int rows,
                                   float scale, float *scores, int scores_stride) {
    const int vectors = width / LANES;
    __m256 key[MAX_VECTORS];
    for (int j = first; j < key_count; j++) {
        for (int i = 0; i < vectors; i++) key[i] = load8(element, k, k_stride, j, i * LANES);
        const float factor = k_scales ? scale * k_scales[j] : scale;
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            __m256 acc = _mm256_setzero_ps();
            for (int i = 0; i < vectors; i++) acc = _mm256_fmadd_ps(key[i], _mm256_loadu_ps(qr + i * LANES), acc);
            scores[(size_t)r * scores_stride + j] = sk_horizontal_sum(acc) * factor;
        }
    }
}

// Eight keys at a time: widened once into an L1 block, then each query row
// is dotted with all eight at once (eight independent accumulators, one
// reduction for the eight scores); a per-key horizontal sum was the
// kernel's cost before. Keys after the last full block go one by one.
INLINE AVX2 void scores_avx2(const sk_element element, const void *k, const float *k_scales, int k_stride,
                             int key_count, int width, const float *q, int q_stride, int rows, float scale,
                             float *scores, int scores_stride) {
    const int vectors = width / LANES;
    const __m256 scale8 = _mm256_set1_ps(scale);
    __m256 block[LANES][MAX_VECTORS];
    int j = 0;
    for (; j + LANES <= key_count; j += LANES) {
        for (int key = 0; key < LANES; key++)
            for (int i = 0; i < vectors; i++) block[key][i] = load8(element, k, k_stride, j + key, i * LANES);
        const __m256 factors = factors8(k_scales, j, scale8);
        for (int r = 0; r < rows; r++) {
            const float *qr = q + (size_t)r * q_stride;
            __m256 acc[LANES];
            for (int key = 0; key < LANES; key++) acc[key] = _mm256_setzero_ps();
            for (int i = 0; i < vectors; i++) {
                const __m256 qv = _mm256_loadu_ps(qr + i * LANES);
                for (int key = 0; key < LANES; key++) acc[key] = _mm256_fmadd_ps(block[key][i], qv, acc[key]);
            }
            _mm256_storeu_ps(scores + (size_t)r * scores_stride + j, _mm256_mul_ps(lane_sums8(acc), factors));
        }
    }
    scores_one_by_one(element, k, k_scales, k_stride, j, key_count, width, q, q_stride, rows, scale, scores,
                      scores_stride);
}

INLINE AVX2 void sums_avx2(const sk_element element, const void *v, const float *v_scales, int v_stride,
                           int key_count, int width, const float *p, int p_stride, int rows, int accumulate,
                           float *out, int out_stride) {
    const int vectors = width / LANES;
    for (int r = 0; r < rows; r++) {
        const float *pr = p + (size_t)r * p_stride;
        float *o = out + (size_t)r * out_stride;
        __m256 sum[MAX_VECTORS];
        for (int i = 0; i < vectors; i++) sum[i] = accumulate ? _mm256_loadu_ps(o + i * LANES) : _mm256_setzero_ps();
        for (int j = 0; j < key_count; j++) {
            const __m256 weight = _mm256_set1_ps(v_scales ? pr[j] * v_scales[j] : pr[j]);
            for (int i = 0; i < vectors; i++)
                sum[i] = _mm256_fmadd_ps(load8(element, v, v_stride, j, i * LANES), weight, sum[i]);
        }
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

/// Eight values of rows `j` and `j + 1` from column `column`, side by side.
INLINE AVX512 __m512 load_pair(const sk_element element, const void *base, int stride, int j, int column) {
    const size_t at = (size_t)j * stride + column, next = at + (size_t)stride;
    switch (element) {
    case SK_ELEMENT_FLOAT: {
        const float *f = base;
        return _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(f + at)), _mm256_loadu_ps(f + next), 1);
    }
    case SK_ELEMENT_HALF: {
        const uint16_t *h = base;
        const __m128i low = _mm_loadu_si128((const __m128i *)(h + at)), high = _mm_loadu_si128((const __m128i *)(h + next));
        return _mm512_cvtph_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1));
    }
    default: {
        const int8_t *b = base;
        const __m128i both = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(b + at)),
                                                _mm_loadl_epi64((const __m128i *)(b + next)));
        return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(both));
    }
    }
}

/// Sixteen values of row `j` from column `column`, as float.
INLINE AVX512 __m512 load16(const sk_element element, const void *base, int stride, int j, int column) {
    const size_t at = (size_t)j * stride + column;
    switch (element) {
    case SK_ELEMENT_FLOAT: return _mm512_loadu_ps((const float *)base + at);
    case SK_ELEMENT_HALF: return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)((const uint16_t *)base + at)));
    default: return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)((const int8_t *)base + at))));
    }
}

/// Scores of `rows` (≤ 6, a constant at each call) query rows against keys
/// `j ..< j + 8` for a head of 64 (a constant, so the accumulators stay in registers).
INLINE AVX512 void scores_block_wide(const sk_element element, const int rows, const void *k, const float *k_scales,
                                     int k_stride, int j, const float *q, int q_stride, __m256 scale8, float *scores,
                                     int scores_stride) {
    const int vectors = WIDE_WIDTH / LANES;
    __m512 acc[WIDE_ROWS][LANES / 2];
    for (int r = 0; r < rows; r++)
        for (int m = 0; m < LANES / 2; m++) acc[r][m] = _mm512_setzero_ps();
    for (int i = 0; i < vectors; i++) {
        __m512 pair[LANES / 2];
        for (int m = 0; m < LANES / 2; m++) pair[m] = load_pair(element, k, k_stride, j + 2 * m, i * LANES);
        for (int r = 0; r < rows; r++) {
            const __m512 qv = _mm512_broadcast_f32x8(_mm256_loadu_ps(q + (size_t)r * q_stride + i * LANES));
            for (int m = 0; m < LANES / 2; m++) acc[r][m] = _mm512_fmadd_ps(pair[m], qv, acc[r][m]);
        }
    }
    const __m256 factors = factors8(k_scales, j, scale8);
    for (int r = 0; r < rows; r++) {
        __m256 keys[LANES];
        for (int m = 0; m < LANES / 2; m++) {
            keys[2 * m] = _mm512_castps512_ps256(acc[r][m]);
            keys[2 * m + 1] = _mm512_extractf32x8_ps(acc[r][m], 1);
        }
        _mm256_storeu_ps(scores + (size_t)r * scores_stride + j, _mm256_mul_ps(lane_sums8(keys), factors));
    }
}

INLINE AVX512 void scores_avx512(const sk_element element, const void *k, const float *k_scales, int k_stride,
                                 int key_count, const float *q, int q_stride, int rows, float scale, float *scores,
                                 int scores_stride) {
    const __m256 scale8 = _mm256_set1_ps(scale);
    const int blocks = key_count / LANES * LANES;
    for (int r0 = 0; r0 < rows; r0 += WIDE_ROWS) {
        const int count = rows - r0 < WIDE_ROWS ? rows - r0 : WIDE_ROWS;
        const float *qr = q + (size_t)r0 * q_stride;
        float *out = scores + (size_t)r0 * scores_stride;
        for (int j = 0; j < blocks; j += LANES) {
#define BLOCK(n) scores_block_wide(element, n, k, k_scales, k_stride, j, qr, q_stride, scale8, out, scores_stride)
            switch (count) {
            case 1: BLOCK(1); break;
            case 2: BLOCK(2); break;
            case 3: BLOCK(3); break;
            case 4: BLOCK(4); break;
            case 5: BLOCK(5); break;
            default: BLOCK(6); break;
            }
#undef BLOCK
        }
    }
    // Keys after the last block of eight, one by one as the AVX2 form takes them.
    scores_one_by_one(element, k, k_scales, k_stride, blocks, key_count, WIDE_WIDTH, q, q_stride, rows, scale,
                      scores, scores_stride);
}

/// Sums of `rows` (≤ 6, a constant at each call) weight rows over every key
/// for a head of 64.
INLINE AVX512 void sums_rows_wide(const sk_element element, const int rows, const void *v, const float *v_scales,
                                  int v_stride, int key_count, const float *p, int p_stride, int accumulate,
                                  float *out, int out_stride) {
    const int vectors = WIDE_WIDTH / 16;
    __m512 sum[WIDE_ROWS][4];
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < vectors; i++)
            sum[r][i] = accumulate ? _mm512_loadu_ps(out + (size_t)r * out_stride + i * 16) : _mm512_setzero_ps();
    for (int j = 0; j < key_count; j++) {
        __m512 value[4];
        for (int i = 0; i < vectors; i++) value[i] = load16(element, v, v_stride, j, i * 16);
        for (int r = 0; r < rows; r++) {
            const float pj = p[(size_t)r * p_stride + j];
            const __m512 weight = _mm512_set1_ps(v_scales ? pj * v_scales[j] : pj);
            for (int i = 0; i < vectors; i++) sum[r][i] = _mm512_fmadd_ps(value[i], weight, sum[r][i]);
        }
    }
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < vectors; i++) _mm512_storeu_ps(out + (size_t)r * out_stride + i * 16, sum[r][i]);
}

INLINE AVX512 void sums_avx512(const sk_element element, const void *v, const float *v_scales, int v_stride,
                               int key_count, const float *p, int p_stride, int rows, int accumulate, float *out,
                               int out_stride) {
    for (int r0 = 0; r0 < rows; r0 += WIDE_ROWS) {
        const int count = rows - r0 < WIDE_ROWS ? rows - r0 : WIDE_ROWS;
        const float *pr = p + (size_t)r0 * p_stride;
        float *o = out + (size_t)r0 * out_stride;
#define ROWS(n) sums_rows_wide(element, n, v, v_scales, v_stride, key_count, pr, p_stride, accumulate, o, out_stride)
        switch (count) {
        case 1: ROWS(1); break;
        case 2: ROWS(2); break;
        case 3: ROWS(3); break;
        case 4: ROWS(4); break;
        case 5: ROWS(5); break;
        default: ROWS(6); break;
        }
#undef ROWS
    }
}

// One instantiation per element type and form, all of one signature so that
// a table picks them: [AVX-512?][element].
typedef void (*scores_form)(const void *k, const float *k_scales, int k_stride, int key_count, int width,
                            const float *q, int q_stride, int rows, float scale, float *scores, int scores_stride);
typedef void (*sums_form)(const void *v, const float *v_scales, int v_stride, int key_count, int width,
                          const float *p, int p_stride, int rows, int accumulate, float *out, int out_stride);
#define INSTANTIATE(name, element)                                                                               \
    static AVX2 void scores_avx2_##name(const void *k, const float *ks, int kst, int kc, int w, const float *q,  \
                                        int qs, int rows, float scale, float *s, int ss) {                       \
        scores_avx2(element, k, ks, kst, kc, w, q, qs, rows, scale, s, ss);                                      \
    }                                                                                                            \
    static AVX2 void sums_avx2_##name(const void *v, const float *vs, int vst, int kc, int w, const float *p,    \
                                      int ps, int rows, int acc, float *o, int os) {                             \
        sums_avx2(element, v, vs, vst, kc, w, p, ps, rows, acc, o, os);                                          \
    }                                                                                                            \
    /* The AVX-512 forms take heads of WIDE_WIDTH only (wide_attention checked it). */                          \
    static AVX512 void scores_avx512_##name(const void *k, const float *ks, int kst, int kc, int w,              \
                                            const float *q, int qs, int rows, float scale, float *s, int ss) {   \
        (void)w;                                                                                                 \
        scores_avx512(element, k, ks, kst, kc, q, qs, rows, scale, s, ss);                                       \
    }                                                                                                            \
    static AVX512 void sums_avx512_##name(const void *v, const float *vs, int vst, int kc, int w,                \
                                          const float *p, int ps, int rows, int acc, float *o, int os) {         \
        (void)w;                                                                                                 \
        sums_avx512(element, v, vs, vst, kc, p, ps, rows, acc, o, os);                                           \
    }
INSTANTIATE(float, SK_ELEMENT_FLOAT)
INSTANTIATE(half, SK_ELEMENT_HALF)
INSTANTIATE(int8, SK_ELEMENT_INT8)
#undef INSTANTIATE

static const scores_form scores_forms[2][3] = {
    {scores_avx2_float, scores_avx2_half, scores_avx2_int8},
    {scores_avx512_float, scores_avx512_half, scores_avx512_int8},
};
static const sums_form sums_forms[2][3] = {
    {sums_avx2_float, sums_avx2_half, sums_avx2_int8},
    {sums_avx512_float, sums_avx512_half, sums_avx512_int8},
};

/// Whether the AVX-512 forms take heads of `width` (whisper's 64) on this CPU.
static int wide_attention(int width) {
    return width == WIDE_WIDTH && sk_avx512_supported();
}
#endif

int sk_attention_vectorized(int width) {
#if defined(__x86_64__) || defined(__i386__)
    return width % 8 == 0 && width <= SK_ATTENTION_MAX_WIDTH && sk_half_gemv_vectorized()
        && __builtin_cpu_supports("f16c");
#else
    (void)width;
    return 0;
#endif
}

#if defined(__x86_64__) || defined(__i386__)
/// Which vector form runs (0 AVX2, 1 AVX-512), or -1 for the portable one.
static int vector_form(int vectorized, int width) {
    if (vectorized && sk_attention_vectorized(width)) return vectorized > 1 && wide_attention(width);
    return -1;
}
#endif

void sk_attention_scores(int vectorized, sk_element element, const void *k, const float *k_scales, int k_stride,
                         int key_count, int width, const float *q, int q_stride, int rows, float scale,
                         float *scores, int scores_stride) {
#if defined(__x86_64__) || defined(__i386__)
    const int form = vector_form(vectorized, width);
    if (form >= 0) {
        scores_forms[form][element](k, k_scales, k_stride, key_count, width, q, q_stride, rows, scale, scores,
                                    scores_stride);
        return;
    }
#endif
    scores_portable(element, k, k_scales, k_stride, key_count, width, q, q_stride, rows, scale, scores, scores_stride);
}

void sk_attention_sums(int vectorized, sk_element element, const void *v, const float *v_scales, int v_stride,
                       int key_count, int width, const float *p, int p_stride, int rows, int accumulate, float *out,
                       int out_stride) {
#if defined(__x86_64__) || defined(__i386__)
    const int form = vector_form(vectorized, width);
    if (form >= 0) {
        sums_forms[form][element](v, v_scales, v_stride, key_count, width, p, p_stride, rows, accumulate, out,
                                  out_stride);
        return;
    }
#endif
    sums_portable(element, v, v_scales, v_stride, key_count, width, p, p_stride, rows, accumulate, out, out_stride);
}
