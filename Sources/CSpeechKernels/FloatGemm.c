// Float matrix products for CPUs whose OpenBLAS does not know them.
//
// An OpenBLAS older than the CPU falls back to its generic SSE3 kernels
// (`Prescott`): no AVX, no FMA, a quarter of the CPU's float throughput. The
// engine then routes its float products here: the B operand is packed into
// panels of 16 columns (k rows of 16 floats, zero-padded past the last
// column), and a register tile runs over them with one broadcast of A per
// row: 6 rows x 1 panel in AVX2 (12 accumulators, two FMAs per row and step),
// 12 rows x 2 panels in AVX-512 (24 accumulators), twice the multiply-adds
// per instruction where the CPU has them. A is read in place; C is written
// once per tile.
//
// Every output is one accumulator summed over k in order with FMA in both
// vector forms, so AVX-512 and AVX2 give the same bits: a machine's
// transcripts do not depend on which of the two it runs.
#include "include/CSpeechKernels.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

enum { PANEL = 16, TILE_ROWS = 6, WIDE_ROWS = 12, WIDE_PANELS = 2 };

/// Columns `j0 ..< j0 + cols` of op(B) as a panel `[k][16]`.
static void pack_panel(int trans_b, const float *b, int ldb, int k, int j0, int cols, float *panel) {
    if (trans_b) {
        // B is [n, k]: column j of op(B) is row j of B.
        for (int jj = 0; jj < PANEL; jj++) {
            if (jj < cols) {
                const float *row = b + (size_t)(j0 + jj) * ldb;
                for (int p = 0; p < k; p++) panel[(size_t)p * PANEL + jj] = row[p];
            } else {
                for (int p = 0; p < k; p++) panel[(size_t)p * PANEL + jj] = 0;
            }
        }
    } else {
        for (int p = 0; p < k; p++) {
            const float *row = b + (size_t)p * ldb + j0;
            float *out = panel + (size_t)p * PANEL;
            memcpy(out, row, sizeof(float) * (size_t)cols);
            for (int jj = cols; jj < PANEL; jj++) out[jj] = 0;
        }
    }
}

/// Writes (or adds) `alpha * tile` into C for the tile's real rows and columns.
static inline void store_tile(const float *tile, int rows, int cols, float alpha, int accumulate,
                              float *c, int ldc) {
    for (int r = 0; r < rows; r++) {
        float *out = c + (size_t)r * ldc;
        const float *t = tile + r * PANEL;
        if (accumulate) {
            for (int jj = 0; jj < cols; jj++) out[jj] += alpha * t[jj];
        } else {
            for (int jj = 0; jj < cols; jj++) out[jj] = alpha * t[jj];
        }
    }
}

static void tile_scalar(int k, const float *a, int lda, int rows, const float *panel, float *tile) {
    for (int r = 0; r < rows; r++) {
        float sums[PANEL] = {0};
        const float *ar = a + (size_t)r * lda;
        for (int p = 0; p < k; p++) {
            const float x = ar[p];
            const float *bp = panel + (size_t)p * PANEL;
            for (int jj = 0; jj < PANEL; jj++) sums[jj] += x * bp[jj];
        }
        memcpy(tile + r * PANEL, sums, sizeof sums);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#define AVX2_FMA __attribute__((target("avx2,fma")))

/// The 6x16 tile. Rows past `rows` repeat the last real row (read, never stored),
/// so the loop has no branches.
static AVX2_FMA void tile_avx2(int k, const float *a, int lda, int rows, const float *panel, float *tile) {
    const float *r0 = a;
    const float *r1 = a + (size_t)(rows > 1 ? 1 : 0) * lda;
    const float *r2 = a + (size_t)(rows > 2 ? 2 : rows - 1) * lda;
    const float *r3 = a + (size_t)(rows > 3 ? 3 : rows - 1) * lda;
    const float *r4 = a + (size_t)(rows > 4 ? 4 : rows - 1) * lda;
    const float *r5 = a + (size_t)(rows > 5 ? 5 : rows - 1) * lda;
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
    __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
    __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
    __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
    __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
    __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
    for (int p = 0; p < k; p++) {
        const __m256 b0 = _mm256_loadu_ps(panel + (size_t)p * PANEL);
        const __m256 b1 = _mm256_loadu_ps(panel + (size_t)p * PANEL + 8);
        __m256 x;
        x = _mm256_broadcast_ss(r0 + p); c00 = _mm256_fmadd_ps(x, b0, c00); c01 = _mm256_fmadd_ps(x, b1, c01);
        x = _mm256_broadcast_ss(r1 + p); c10 = _mm256_fmadd_ps(x, b0, c10); c11 = _mm256_fmadd_ps(x, b1, c11);
        x = _mm256_broadcast_ss(r2 + p); c20 = _mm256_fmadd_ps(x, b0, c20); c21 = _mm256_fmadd_ps(x, b1, c21);
        x = _mm256_broadcast_ss(r3 + p); c30 = _mm256_fmadd_ps(x, b0, c30); c31 = _mm256_fmadd_ps(x, b1, c31);
        x = _mm256_broadcast_ss(r4 + p); c40 = _mm256_fmadd_ps(x, b0, c40); c41 = _mm256_fmadd_ps(x, b1, c41);
        x = _mm256_broadcast_ss(r5 + p); c50 = _mm256_fmadd_ps(x, b0, c50); c51 = _mm256_fmadd_ps(x, b1, c51);
    }
    _mm256_storeu_ps(tile + 0 * PANEL, c00); _mm256_storeu_ps(tile + 0 * PANEL + 8, c01);
    _mm256_storeu_ps(tile + 1 * PANEL, c10); _mm256_storeu_ps(tile + 1 * PANEL + 8, c11);
    _mm256_storeu_ps(tile + 2 * PANEL, c20); _mm256_storeu_ps(tile + 2 * PANEL + 8, c21);
    _mm256_storeu_ps(tile + 3 * PANEL, c30); _mm256_storeu_ps(tile + 3 * PANEL + 8, c31);
    _mm256_storeu_ps(tile + 4 * PANEL, c40); _mm256_storeu_ps(tile + 4 * PANEL + 8, c41);
    _mm256_storeu_ps(tile + 5 * PANEL, c50); _mm256_storeu_ps(tile + 5 * PANEL + 8, c51);
}

#define AVX512 __attribute__((target("avx512f")))

/// Where a tile's results go: C's rows from `c`, `ldc` apart, the columns a
/// mask keeps for each of the two panels, and how they are written.
typedef struct {
    float *c;
    int ldc;
    __mmask16 mask[WIDE_PANELS];
    float alpha;
    int accumulate;
} wide_store;

/// `alpha · acc` into C (added to it when accumulating), as `store_tile`
/// computes it: a multiply and then an add, each rounded.
static inline AVX512 __attribute__((always_inline)) void
store_wide(const wide_store *out, int r, int q, __m512 acc) {
    float *row = out->c + (size_t)r * out->ldc + q * PANEL;
    __m512 v = _mm512_mul_ps(_mm512_set1_ps(out->alpha), acc);
    if (out->accumulate) v = _mm512_add_ps(_mm512_maskz_loadu_ps(out->mask[q], row), v);
    _mm512_mask_storeu_ps(row, out->mask[q], v);
}

/// `rows` (≤ 12, a constant at each call) rows against `panels` (1 or 2)
/// consecutive panels, one 16-float accumulator per row and panel, written
/// straight from the registers into C.
static inline AVX512 __attribute__((always_inline)) void
wide_tile(const int rows, const int panels, int k, const float *a, int lda, const float *panel,
          const wide_store *out) {
    // Unrolled (rows is a constant here) so that the accumulators live in registers.
    __m512 acc[WIDE_ROWS][WIDE_PANELS];
#pragma GCC unroll 12
    for (int r = 0; r < rows; r++) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    const float *second = panel + (size_t)k * PANEL;
    for (int p = 0; p < k; p++) {
        const __m512 b0 = _mm512_loadu_ps(panel + (size_t)p * PANEL);
        const __m512 b1 = panels > 1 ? _mm512_loadu_ps(second + (size_t)p * PANEL) : b0;
#pragma GCC unroll 12
        for (int r = 0; r < rows; r++) {
            const __m512 x = _mm512_set1_ps(a[(size_t)r * lda + p]);
            acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
            if (panels > 1) acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
        }
    }
#pragma GCC unroll 12
    for (int r = 0; r < rows; r++) {
        store_wide(out, r, 0, acc[r][0]);
        if (panels > 1) store_wide(out, r, 1, acc[r][1]);
    }
}

#define WIDE_ROWS_CASES(panels)                                                         \
    switch (rows) {                                                                     \
    case 1: wide_tile(1, panels, k, a, lda, panel, out); break;                         \
    case 2: wide_tile(2, panels, k, a, lda, panel, out); break;                         \
    case 3: wide_tile(3, panels, k, a, lda, panel, out); break;                         \
    case 4: wide_tile(4, panels, k, a, lda, panel, out); break;                         \
    case 5: wide_tile(5, panels, k, a, lda, panel, out); break;                         \
    case 6: wide_tile(6, panels, k, a, lda, panel, out); break;                         \
    case 7: wide_tile(7, panels, k, a, lda, panel, out); break;                         \
    case 8: wide_tile(8, panels, k, a, lda, panel, out); break;                         \
    case 9: wide_tile(9, panels, k, a, lda, panel, out); break;                         \
    case 10: wide_tile(10, panels, k, a, lda, panel, out); break;                       \
    case 11: wide_tile(11, panels, k, a, lda, panel, out); break;                       \
    default: wide_tile(12, panels, k, a, lda, panel, out); break;                       \
    }

/// The 12x32 tile and its smaller forms (fewer rows at the end of A, one
/// panel at the end of B), each with its accumulators in registers.
static AVX512 void tile_avx512(int k, const float *a, int lda, int rows, int panels, const float *panel,
                               const wide_store *out) {
    if (panels > 1) {
        WIDE_ROWS_CASES(2)
    } else {
        WIDE_ROWS_CASES(1)
    }
}

/// `pack_panel` for B given as `[n, k]` rows (`trans_b`): sixteen rows read
/// at once, one gathered element from each, instead of a scalar store per
/// element with a stride of 16.
static AVX512 void pack_panel_rows_wide(const float *b, int ldb, int k, int j0, __mmask16 mask, float *panel) {
    const __m512i offsets = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                               _mm512_set1_epi32(ldb));
    const float *base = b + (size_t)j0 * ldb;
    for (int p = 0; p < k; p++)
        _mm512_storeu_ps(panel + (size_t)p * PANEL,
                         _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask, offsets, base + p, 4));
}

/// `pack_panel` for B given as half-precision `[n, k]` rows: a 16x16 block
/// (16 rows, 16 halves each) widened in registers and transposed, four
/// rounds each swapping one bit of the row index with the same bit of the
/// column index. Widening is exact, so the panel holds the values (and the
/// product the bits) of widening B to float first, without that float copy
/// or sixteen-element gathers (which took as long as the decoder's
/// products at a beam-5 batch's 40 rows).
static AVX512 void pack_panel_half_wide(const uint16_t *b, int ldb, int k, int j0, int cols, float *panel) {
    __m512i low[4], high[4];
    for (int round = 0; round < 4; round++) {
        const int bit = 1 << round;
        int32_t l[16], h[16];
        for (int p = 0; p < 16; p++) {
            l[p] = (p & bit) ? 16 + p - bit : p;
            h[p] = (p & bit) ? 16 + p : p + bit;
        }
        low[round] = _mm512_loadu_si512(l);
        high[round] = _mm512_loadu_si512(h);
    }
    const uint16_t *base = b + (size_t)j0 * ldb;
    for (int p0 = 0; p0 < k; p0 += PANEL) {
        const int width = k - p0 < PANEL ? k - p0 : PANEL;
        __m512 r[PANEL];
        for (int jj = 0; jj < PANEL; jj++) {
            const uint16_t *row = base + (size_t)jj * ldb + p0;
            if (jj >= cols) {
                r[jj] = _mm512_setzero_ps();
            } else if (width == PANEL) {
                r[jj] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)row));
            } else {
                uint16_t tail[PANEL] = {0};
                memcpy(tail, row, sizeof(uint16_t) * (size_t)width);
                r[jj] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)tail));
            }
        }
        for (int round = 0; round < 4; round++) {
            const int bit = 1 << round;
            for (int jj = 0; jj < PANEL; jj++) {
                if (jj & bit) continue;
                const __m512 x = r[jj], y = r[jj + bit];
                r[jj] = _mm512_permutex2var_ps(x, low[round], y);
                r[jj + bit] = _mm512_permutex2var_ps(x, high[round], y);
            }
        }
        for (int q = 0; q < width; q++) _mm512_storeu_ps(panel + (size_t)(p0 + q) * PANEL, r[q]);
    }
}
#endif

int sk_float_gemm_vectorized(void) {
#if defined(__x86_64__) || defined(__i386__)
    return sk_path_supported(SK_PATH_AVX2) && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

int sk_float_gemm_best(void) {
#if defined(__x86_64__) || defined(__i386__)
    if (sk_float_gemm_vectorized() && __builtin_cpu_supports("avx512f")) return SK_FLOAT_AVX512;
#endif
    return sk_float_gemm_vectorized() ? SK_FLOAT_AVX2 : SK_FLOAT_PORTABLE;
}

/// The AVX-512 form: two panels packed back to back per pass over A. B is
/// `b` as float or, when `b` is NULL, `half` as half-precision `[n, k]` rows.
static int sgemm_wide(int trans_b, int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                      const uint16_t *half, int ldb, int accumulate, float *c, int ldc) {
#if defined(__x86_64__) || defined(__i386__)
    float *panel = malloc(sizeof(float) * (size_t)k * PANEL * WIDE_PANELS);
    if (!panel) return -1;
    // Gathers take 32-bit offsets: sixteen rows of B must lie within them.
    const int gathers = trans_b && (long long)ldb * PANEL < 0x7fffffffLL;
    for (int j0 = 0; j0 < n; j0 += WIDE_PANELS * PANEL) {
        const int cols = n - j0 < WIDE_PANELS * PANEL ? n - j0 : WIDE_PANELS * PANEL;
        const int panels = cols > PANEL ? 2 : 1;
        wide_store out = {.ldc = ldc, .alpha = alpha, .accumulate = accumulate};
        for (int q = 0; q < WIDE_PANELS; q++) {
            // This panel's columns of C (none for the second of a one-panel pass).
            const int panel_cols = cols - q * PANEL >= PANEL ? PANEL : (cols - q * PANEL > 0 ? cols - q * PANEL : 0);
            out.mask[q] = (__mmask16)((1u << panel_cols) - 1);
            if (panel_cols == 0) continue;
            float *target = panel + (size_t)q * k * PANEL;
            if (!b) pack_panel_half_wide(half, ldb, k, j0 + q * PANEL, panel_cols, target);
            else if (gathers) pack_panel_rows_wide(b, ldb, k, j0 + q * PANEL, out.mask[q], target);
            else pack_panel(trans_b, b, ldb, k, j0 + q * PANEL, panel_cols, target);
        }
        for (int i0 = 0; i0 < m; i0 += WIDE_ROWS) {
            const int rows = m - i0 < WIDE_ROWS ? m - i0 : WIDE_ROWS;
            out.c = c + (size_t)i0 * ldc + j0;
            tile_avx512(k, a + (size_t)i0 * lda, lda, rows, panels, panel, &out);
        }
    }
    free(panel);
    return 0;
#else
    (void)trans_b; (void)m; (void)n; (void)k; (void)alpha; (void)a; (void)lda; (void)b; (void)half; (void)ldb;
    (void)accumulate; (void)c; (void)ldc;
    return -1;
#endif
}

/// A product with no rows, columns or terms: C zeroed (or left, when
/// accumulating) as sgemm leaves it. Returns whether it was one.
static int empty_product(int m, int n, int k, int accumulate, float *c, int ldc) {
    if (m <= 0 || n <= 0) return 1;
    if (k > 0) return 0;
    if (!accumulate) for (int i = 0; i < m; i++) memset(c + (size_t)i * ldc, 0, sizeof(float) * (size_t)n);
    return 1;
}

int sk_sgemm(int path, int trans_b, int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb, int accumulate, float *c, int ldc) {
    if (empty_product(m, n, k, accumulate, c, ldc)) return 0;
    if (path == SK_FLOAT_AVX512) return sgemm_wide(trans_b, m, n, k, alpha, a, lda, b, NULL, ldb, accumulate, c, ldc);
    const int vectorized = path == SK_FLOAT_AVX2;
    float *panel = malloc(sizeof(float) * (size_t)k * PANEL);
    if (!panel) return -1;
    float tile[TILE_ROWS * PANEL];
    for (int j0 = 0; j0 < n; j0 += PANEL) {
        const int cols = n - j0 < PANEL ? n - j0 : PANEL;
        pack_panel(trans_b, b, ldb, k, j0, cols, panel);
        for (int i0 = 0; i0 < m; i0 += TILE_ROWS) {
            const int rows = m - i0 < TILE_ROWS ? m - i0 : TILE_ROWS;
            const float *ai = a + (size_t)i0 * lda;
#if defined(__x86_64__) || defined(__i386__)
            if (vectorized) tile_avx2(k, ai, lda, rows, panel, tile);
            else tile_scalar(k, ai, lda, rows, panel, tile);
#else
            (void)vectorized;
            tile_scalar(k, ai, lda, rows, panel, tile);
#endif
            store_tile(tile, rows, cols, alpha, accumulate, c + (size_t)i0 * ldc + j0, ldc);
        }
    }
    free(panel);
    return 0;
}

int sk_sgemm_half(int m, int n, int k, float alpha, const float *a, int lda, const uint16_t *b, int ldb,
                  int accumulate, float *c, int ldc) {
    if (sk_float_gemm_best() != SK_FLOAT_AVX512 || !b) return -1;
    if (empty_product(m, n, k, accumulate, c, ldc)) return 0;
    return sgemm_wide(1, m, n, k, alpha, a, lda, NULL, b, ldb, accumulate, c, ldc);
}
