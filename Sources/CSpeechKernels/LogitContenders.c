// Which tokens of a row of screened (int8) logits must be computed exactly:
// those near the row's best, where the int8 rounding could change which
// token wins or how beams compare. The rest stay screened values, far below
// the best, where an error of a few hundredths changes no choice.
#include "CSpeechKernels.h"
#include "VectorSums.h"
#include <math.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))

static AVX2 float maximum_avx2(const float *row, int count) {
    __m256 best = _mm256_set1_ps(-INFINITY);
    int i = 0;
    for (; i + 8 <= count; i += 8) best = _mm256_max_ps(_mm256_loadu_ps(row + i), best);
    float lanes[8];
    _mm256_storeu_ps(lanes, best);
    float result = -INFINITY;
    for (int j = 0; j < 8; j++) result = lanes[j] > result ? lanes[j] : result;
    for (; i < count; i++) result = row[i] > result ? row[i] : result;
    return result;
}

/// Indices of the values at least `threshold`, in order; `capacity + 1` when there are more.
static AVX2 int collect_avx2(const float *row, int count, float threshold, int32_t *indices, int capacity) {
    const __m256 floor = _mm256_set1_ps(threshold);
    int found = 0, i = 0;
    for (; i + 8 <= count; i += 8) {
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(row + i), floor, _CMP_GE_OQ));
        while (mask) {
            if (found == capacity) return capacity + 1;
            indices[found++] = i + __builtin_ctz(mask);
            mask &= mask - 1;
        }
    }
    for (; i < count; i++) {
        if (!(row[i] >= threshold)) continue;
        if (found == capacity) return capacity + 1;
        indices[found++] = i;
    }
    return found;
}
#endif

static float maximum_portable(const float *row, int count) {
    float result = -INFINITY;
    for (int i = 0; i < count; i++) result = row[i] > result ? row[i] : result;
    return result;
}

static int collect_portable(const float *row, int count, float threshold, int32_t *indices, int capacity) {
    int found = 0;
    for (int i = 0; i < count; i++) {
        if (!(row[i] >= threshold)) continue;
        if (found == capacity) return capacity + 1;
        indices[found++] = i;
    }
    return found;
}

/// Inserts `value` (index `index`) into the `*filled` best so far, kept in
/// descending order, at most `least`; returns the new floor (the least-best
/// kept once full, -inf until then).
static float keep_best(float value, int32_t index, float *best, int32_t *indices, int *filled, int least) {
    int i = *filled < least ? (*filled)++ : least - 1;
    while (i > 0 && best[i - 1] < value) {
        best[i] = best[i - 1];
        indices[i] = indices[i - 1];
        i--;
    }
    best[i] = value;
    indices[i] = index;
    return *filled == least ? best[least - 1] : -INFINITY;
}

/// The `least` largest values' indices (fewer when fewer are finite); returns how many.
static int top_portable(const float *row, int count, int least, int32_t *indices) {
    float best[SK_LOGIT_CONTENDERS_MAX_LEAST];
    int filled = 0;
    float floor = -INFINITY;
    for (int i = 0; i < count; i++)
        if (row[i] > floor) floor = keep_best(row[i], i, best, indices, &filled, least);
    return filled;
}

#if defined(__x86_64__) || defined(__i386__)
/// `top_portable`, skipping blocks of eight with nothing above the floor (most of them).
static AVX2 int top_avx2(const float *row, int count, int least, int32_t *indices) {
    float best[SK_LOGIT_CONTENDERS_MAX_LEAST];
    int filled = 0;
    float floor = -INFINITY;
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        unsigned mask = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(row + i), _mm256_set1_ps(floor),
                                                                   _CMP_GT_OQ));
        while (mask) {
            const int j = i + __builtin_ctz(mask);
            if (row[j] > floor) floor = keep_best(row[j], j, best, indices, &filled, least);
            mask &= mask - 1;
        }
    }
    for (; i < count; i++)
        if (row[i] > floor) floor = keep_best(row[i], i, best, indices, &filled, least);
    return filled;
}
#endif

int sk_logit_contenders(int vectorized, const float *row, int count, float margin, int least, int32_t *indices,
                        int capacity) {
    float (*maximum)(const float *, int) = maximum_portable;
    int (*collect)(const float *, int, float, int32_t *, int) = collect_portable;
    int (*top)(const float *, int, int, int32_t *) = top_portable;
#if defined(__x86_64__) || defined(__i386__)
    if (vectorized && __builtin_cpu_supports("avx2")) {
        maximum = maximum_avx2;
        collect = collect_avx2;
        top = top_avx2;
    }
#endif
    if (least > SK_LOGIT_CONTENDERS_MAX_LEAST) least = SK_LOGIT_CONTENDERS_MAX_LEAST;
    if (least > capacity) least = capacity;
    const float best = maximum(row, count);
    if (!(best > -INFINITY)) return 0;   // nothing finite to choose from
    const int found = collect(row, count, best - margin, indices, capacity);
    if (found > capacity) return -1;
    // Fewer than `least` near the best (one token far ahead): the `least`
    // best instead, a superset, as a beam's next candidates must be exact.
    return found >= least ? found : top(row, count, least, indices);
}

int sk_top_indices(int vectorized, const float *row, int count, int k, int32_t *indices) {
    if (k <= 0) return 0;
    if (k > SK_LOGIT_CONTENDERS_MAX_LEAST) k = SK_LOGIT_CONTENDERS_MAX_LEAST;
#if defined(__x86_64__) || defined(__i386__)
    if (vectorized && __builtin_cpu_supports("avx2")) return top_avx2(row, count, k, indices);
#endif
    return top_portable(row, count, k, indices);
}
