// Half-precision weights with float32 arithmetic for a few activation rows
// (decoder steps). Whisper's checkpoints are float16, so keeping their
// weights as they are loses nothing and halves the bytes a step reads from
// memory; the products and sums are float32 as with float weights. Four
// weight rows at a time are widened to float into a small buffer (in chunks
// of the inputs that stay in L1) and every activation row is dotted with
// them there, so a weight is read from memory and widened once per call.
// Up to two rows (every row count with AVX-512, two weight rows to a
// register) widen in registers instead and use each widened weight for
// every row: storing and reloading the buffer took more time than the
// products (3.0 ms against 2.1 ms for one row of the 51,865-row logits, whose
// 53 MB the memory delivers in 1.9 ms). Both forms add in the same order (per
// lane over a chunk of 512, then the lanes), so they give the same bits.
#include "CSpeechKernels.h"
#include "VectorSums.h"
#include <CFloat16.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

enum { GROUP_ROWS = 4, CHUNK = 512 };

/// sums[r * 4 + i] += Σ_k x[r][k] · w[i][k] over `count` inputs, w `[4][CHUNK]`.
typedef void (*dot_fn)(const float *x, int rows, int x_stride, const float *w, int count, float *sums);

static void dot_portable(const float *x, int rows, int x_stride, const float *w, int count, float *sums) {
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * x_stride;
        for (int i = 0; i < GROUP_ROWS; i++) {
            float sum = 0;
            for (int k = 0; k < count; k++) sum += xr[k] * w[i * CHUNK + k];
            sums[r * GROUP_ROWS + i] += sum;
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma")))
static void dot_avx2(const float *x, int rows, int x_stride, const float *w, int count, float *sums) {
    const int vector = count & ~7;
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * x_stride;
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int k = 0; k < vector; k += 8) {
            const __m256 xv = _mm256_loadu_ps(xr + k);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(w + k), xv, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(w + CHUNK + k), xv, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 2 * CHUNK + k), xv, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(w + 3 * CHUNK + k), xv, a3);
        }
        float tail[GROUP_ROWS] = {0, 0, 0, 0};
        for (int k = vector; k < count; k++)
            for (int i = 0; i < GROUP_ROWS; i++) tail[i] += xr[k] * w[i * CHUNK + k];
        float *s = sums + r * GROUP_ROWS;
        s[0] += sk_horizontal_sum(a0) + tail[0];
        s[1] += sk_horizontal_sum(a1) + tail[1];
        s[2] += sk_horizontal_sum(a2) + tail[2];
        s[3] += sk_horizontal_sum(a3) + tail[3];
    }
}

enum { DIRECT_ROWS_AVX2 = 2, DIRECT_ROWS_AVX512 = SK_HALF_GEMV_MAX_ROWS };

/// Σ x[k]·w[k] over the inputs after the vector part (`from ..< count`), in
/// order, as the buffered form adds its tail (inlined, so that it is built
/// for the caller's instructions as the buffered form's tail is).
static inline __attribute__((always_inline)) float tail_dot(const float *x, const uint16_t *w, int from, int count) {
    float tail = 0;
    for (int k = from; k < count; k++) {
        float weight;
        cf16_to_f32(w + k, &weight, 1);
        tail += x[k] * weight;
    }
    return tail;
}

/// The same sums as `dot_avx2` for `rows` (a constant at each call) rows,
/// widening four half weight rows (`w_stride` apart) in registers and using
/// each for every row. Sixteen AVX2 registers hold two rows' accumulators.
__attribute__((target("avx2,fma,f16c"), always_inline))
static inline void dot_half(const int rows, const float *x, int x_stride, const uint16_t *w, size_t w_stride,
                            int count, float *sums) {
    const int vector = count & ~7;
    __m256 acc[DIRECT_ROWS_AVX2][GROUP_ROWS];
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < GROUP_ROWS; i++) acc[r][i] = _mm256_setzero_ps();
    for (int k = 0; k < vector; k += 8) {
        __m256 wv[GROUP_ROWS];
        for (int i = 0; i < GROUP_ROWS; i++)
            wv[i] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(w + (size_t)i * w_stride + k)));
        for (int r = 0; r < rows; r++) {
            const __m256 xv = _mm256_loadu_ps(x + (size_t)r * x_stride + k);
            for (int i = 0; i < GROUP_ROWS; i++) acc[r][i] = _mm256_fmadd_ps(wv[i], xv, acc[r][i]);
        }
    }
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < GROUP_ROWS; i++)
            sums[r * GROUP_ROWS + i] += sk_horizontal_sum(acc[r][i])
                                      + tail_dot(x + (size_t)r * x_stride, w + (size_t)i * w_stride, vector, count);
}

/// Up to two rows in AVX2 registers.
__attribute__((target("avx2,fma,f16c")))
static void dot_half_avx2(int rows, const float *x, int x_stride, const uint16_t *w, size_t w_stride, int count,
                          float *sums) {
    if (rows == 1) dot_half(1, x, x_stride, w, w_stride, count, sums);
    else dot_half(2, x, x_stride, w, w_stride, count, sums);
}

/// The same sums for up to eight rows with AVX-512: one 16-lane register
/// holds two weight rows' 8 lanes side by side (rows i and i+1 at the same
/// k), so each FMA does the work of two AVX2 FMAs while every lane still
/// adds its products in the AVX2 order; the halves are summed as before.
__attribute__((target("avx2,fma,f16c,avx512f,avx512dq"), always_inline))
static inline void dot_half_pairs(const int rows, const float *x, int x_stride, const uint16_t *w, size_t w_stride,
                                  int count, float *sums) {
    const int vector = count & ~7;
    __m512 acc[SK_HALF_GEMV_MAX_ROWS][GROUP_ROWS / 2];
    for (int r = 0; r < rows; r++)
        for (int i = 0; i < GROUP_ROWS / 2; i++) acc[r][i] = _mm512_setzero_ps();
    for (int k = 0; k < vector; k += 8) {
        __m512 wv[GROUP_ROWS / 2];
        for (int i = 0; i < GROUP_ROWS / 2; i++) {
            const __m128i low = _mm_loadu_si128((const __m128i *)(w + (size_t)(2 * i) * w_stride + k));
            const __m128i high = _mm_loadu_si128((const __m128i *)(w + (size_t)(2 * i + 1) * w_stride + k));
            wv[i] = _mm512_cvtph_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1));
        }
        for (int r = 0; r < rows; r++) {
            const __m512 xv = _mm512_broadcast_f32x8(_mm256_loadu_ps(x + (size_t)r * x_stride + k));
            for (int i = 0; i < GROUP_ROWS / 2; i++) acc[r][i] = _mm512_fmadd_ps(wv[i], xv, acc[r][i]);
        }
    }
    for (int r = 0; r < rows; r++) {
        for (int i = 0; i < GROUP_ROWS; i++) {
            const __m512 pair = acc[r][i / 2];
            const __m256 lanes = i % 2 == 0 ? _mm512_castps512_ps256(pair) : _mm512_extractf32x8_ps(pair, 1);
            sums[r * GROUP_ROWS + i] += sk_horizontal_sum(lanes)
                                      + tail_dot(x + (size_t)r * x_stride, w + (size_t)i * w_stride, vector, count);
        }
    }
}

__attribute__((target("avx2,fma,f16c,avx512f,avx512dq")))
static void dot_half_avx512(int rows, const float *x, int x_stride, const uint16_t *w, size_t w_stride, int count,
                            float *sums) {
    switch (rows) {
    case 1: dot_half_pairs(1, x, x_stride, w, w_stride, count, sums); break;
    case 2: dot_half_pairs(2, x, x_stride, w, w_stride, count, sums); break;
    case 3: dot_half_pairs(3, x, x_stride, w, w_stride, count, sums); break;
    case 4: dot_half_pairs(4, x, x_stride, w, w_stride, count, sums); break;
    case 5: dot_half_pairs(5, x, x_stride, w, w_stride, count, sums); break;
    case 6: dot_half_pairs(6, x, x_stride, w, w_stride, count, sums); break;
    case 7: dot_half_pairs(7, x, x_stride, w, w_stride, count, sums); break;
    default: dot_half_pairs(8, x, x_stride, w, w_stride, count, sums); break;
    }
}
#endif

// The same instructions as the int8-weights kernel's vector form.
int sk_half_gemv_vectorized(void) { return sk_float_gemv_supported(SK_PATH_AVX2); }

void sk_gemv_f16(int form, const uint16_t *w, const float *x, int rows, int in_count, const float *bias,
                 int first, int last, float *out, int out_stride) {
    dot_fn dot = dot_portable;
#if defined(__x86_64__) || defined(__i386__)
    if (form > 0 && sk_half_gemv_vectorized()) dot = dot_avx2;
#endif
    // How many rows the in-register form takes on this CPU (0: none).
    int direct_rows = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (form > 1 && dot == dot_avx2 && __builtin_cpu_supports("f16c"))
        direct_rows = form > 2 && sk_avx512_supported()
                          ? DIRECT_ROWS_AVX512 : DIRECT_ROWS_AVX2;
#endif
    float widened[GROUP_ROWS * CHUNK];
    float sums[SK_HALF_GEMV_MAX_ROWS * GROUP_ROWS];
    for (int n = first; n < last; n += GROUP_ROWS) {
        const int group = last - n < GROUP_ROWS ? last - n : GROUP_ROWS;
        memset(sums, 0, sizeof sums);
        for (int k = 0; k < in_count; k += CHUNK) {
            const int count = in_count - k < CHUNK ? in_count - k : CHUNK;
#if defined(__x86_64__) || defined(__i386__)
            if (direct_rows >= rows && group == GROUP_ROWS) {
                const uint16_t *wk = w + (size_t)n * in_count + k;
                if (direct_rows == DIRECT_ROWS_AVX512) dot_half_avx512(rows, x + k, in_count, wk, (size_t)in_count, count, sums);
                else dot_half_avx2(rows, x + k, in_count, wk, (size_t)in_count, count, sums);
                continue;
            }
#endif
            for (int i = 0; i < GROUP_ROWS; i++) {
                if (i < group) cf16_to_f32(w + (size_t)(n + i) * in_count + k, widened + i * CHUNK, (size_t)count);
                else memset(widened + i * CHUNK, 0, sizeof(float) * (size_t)count);
            }
            dot(x + k, rows, in_count, widened, count, sums);
        }
        for (int r = 0; r < rows; r++)
            for (int i = 0; i < group; i++)
                out[(size_t)r * out_stride + n + i] = sums[r * GROUP_ROWS + i] + (bias ? bias[n + i] : 0);
    }
}

#if defined(__x86_64__) || defined(__i386__)
/// One weight row against one activation row, as `dot_avx2` and the
/// in-register forms add it: eight lanes over each chunk, then the lanes,
/// then the chunk's tail in order.
__attribute__((target("avx2,fma,f16c")))
static float dot_half_row_avx2(const float *x, const uint16_t *w, int in_count) {
    float sum = 0;
    for (int k = 0; k < in_count; k += CHUNK) {
        const int count = in_count - k < CHUNK ? in_count - k : CHUNK;
        const int vector = count & ~7;
        __m256 acc = _mm256_setzero_ps();
        for (int j = 0; j < vector; j += 8)
            acc = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(w + k + j))),
                                  _mm256_loadu_ps(x + k + j), acc);
        sum += sk_horizontal_sum(acc) + tail_dot(x + k, w + k, vector, count);
    }
    return sum;
}
#endif

/// The portable form's sums for one weight row (`dot_portable`'s order).
static float dot_half_row_portable(const float *x, const uint16_t *w, int in_count) {
    float widened[CHUNK];
    float total = 0;
    for (int k = 0; k < in_count; k += CHUNK) {
        const int count = in_count - k < CHUNK ? in_count - k : CHUNK;
        cf16_to_f32(w + k, widened, (size_t)count);
        float sum = 0;
        for (int j = 0; j < count; j++) sum += x[k + j] * widened[j];
        total += sum;
    }
    return total;
}

void sk_gemv_f16_rows(int form, const uint16_t *w, const float *x, int in_count, const int32_t *indices, int count,
                      float *out) {
#if defined(__x86_64__) || defined(__i386__)
    if (form > 0 && sk_half_gemv_vectorized()) {
        for (int i = 0; i < count; i++) out[i] = dot_half_row_avx2(x, w + (size_t)indices[i] * in_count, in_count);
        return;
    }
#endif
    for (int i = 0; i < count; i++) out[i] = dot_half_row_portable(x, w + (size_t)indices[i] * in_count, in_count);
}
