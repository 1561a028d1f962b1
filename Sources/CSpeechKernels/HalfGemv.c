// Half-precision weights with float32 arithmetic for a few activation rows
// (decoder steps). Whisper's checkpoints are float16, so keeping their
// weights as they are loses nothing and halves the bytes a step reads from
// memory; the products and sums are float32 as with float weights. Four
// weight rows at a time are widened to float into a small buffer (in chunks
// of the inputs that stay in L1) and every activation row is dotted with
// them there, so a weight is read from memory and widened once per call.
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
#endif

// The same instructions as the int8-weights kernel's vector form.
int sk_half_gemv_vectorized(void) { return sk_float_gemv_supported(SK_PATH_AVX2); }

void sk_gemv_f16(int vectorized, const uint16_t *w, const float *x, int rows, int in_count, const float *bias,
                 int first, int last, float *out, int out_stride) {
    dot_fn dot = dot_portable;
#if defined(__x86_64__) || defined(__i386__)
    if (vectorized && sk_half_gemv_vectorized()) dot = dot_avx2;
#endif
    float widened[GROUP_ROWS * CHUNK];
    float sums[SK_HALF_GEMV_MAX_ROWS * GROUP_ROWS];
    for (int n = first; n < last; n += GROUP_ROWS) {
        const int group = last - n < GROUP_ROWS ? last - n : GROUP_ROWS;
        memset(sums, 0, sizeof sums);
        for (int k = 0; k < in_count; k += CHUNK) {
            const int count = in_count - k < CHUNK ? in_count - k : CHUNK;
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
