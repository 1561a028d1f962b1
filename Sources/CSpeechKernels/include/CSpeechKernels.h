#ifndef CSPEECHKERNELS_H
#define CSPEECHKERNELS_H
// Integer matrix kernels for the engine's 8-bit weights.
//
// Weights are int8, symmetric, one scale per output row, packed once at load
// in blocks of 16 output rows: block b holds, for each group g of 4 inputs,
// the 4 weights of each of its 16 rows (64 bytes: row-major [16][4]). That is
// the operand layout of VPDPBUSD and, split in two halves of 8 rows, of
// VPMADDUBSW, so every path reads the same bytes. Inputs are padded to a
// multiple of 4 and rows to a multiple of 16 with zero weights.
//
// Activations are quantized per row at each call (symmetric, [-127, 127]).
#include <stddef.h>
#include <stdint.h>

/// The instruction paths of the kernels.
typedef enum {
    /// Plain C: any CPU; the reference the vector paths must equal.
    SK_PATH_SCALAR = 1,
    /// AVX2: VPMADDUBSW on |a| and sign(a)·w (no int16 saturation: each pair
    /// sum is at most 2·127·127), VPMADDWD to int32.
    SK_PATH_AVX2 = 2,
    /// AVX-512 VNNI: VPDPBUSD on a+128 (unsigned) and w, corrected by
    /// 128·Σw per row.
    SK_PATH_VNNI = 3,
} sk_path;

/// The fastest path this CPU runs (checked once with __builtin_cpu_supports).
sk_path sk_best_path(void);

/// Whether this CPU can run `path`.
int sk_path_supported(sk_path path);

/// Inputs padded to the 4-wide groups.
static inline int sk_padded_in(int in_count) { return (in_count + 3) & ~3; }

/// Output rows padded to the 16-row blocks.
static inline int sk_padded_out(int out_count) { return (out_count + 15) & ~15; }

/// Quantizes rows `first ..< first + count` of a weight matrix (`rows` holds
/// them, `[count, in_count]` float, row-major) into `packed`
/// (`sk_padded_out(out_count) * sk_padded_in(in_count)` bytes, zeroed
/// beforehand), writing each row's scale (max|w| / 127) and the sum of its
/// quantized weights (the VNNI correction).
void sk_pack_rows(const float *rows, int first, int count, int in_count,
                  int8_t *packed, float *scales, int32_t *sums);

/// Packs rows `0 ..< count` (row `r` at `rows + r * row_stride`, `in_count`
/// values) as `sk_pack_rows` does, but with one scale per input (column)
/// for every row: byte = value · `inverse_scales[k]` rounded half to even
/// and clamped to [-127, 127] (the caller keeps the scales); `sums[r]` gets
/// each row's byte sum. `packed` as for `sk_pack_rows`, zeroed beforehand.
void sk_pack_rows_by_column(const float *rows, int row_stride, int count, int in_count,
                            const float *inverse_scales, int8_t *packed, int32_t *sums);

/// Row `row` of a packed matrix, dequantized into `out[in_count]`
/// (embedding lookups).
void sk_unpack_row(const int8_t *packed, const float *scales, int row, int in_count, float *out);

/// Quantizes `rows` activations of `in_count` values (row stride `in_count`)
/// into `q` (`rows * sk_padded_in(in_count)` bytes) and `scales[rows]`, in the
/// form `path` reads (offset by 128 for VNNI).
void sk_quantize_rows(sk_path path, const float *x, int rows, int in_count, int8_t *q, float *scales);

/// `out[r * out_stride + n] = (Σ_k q[r,k]·w[n,k]) · qscale[r] · wscale[n] + bias[n]`
/// for rows `0 ..< rows` and outputs `block_first * 16 ..< min(block_end * 16, out_count)`.
/// `bias` may be NULL. `q` and `qscales` come from `sk_quantize_rows` with the same path.
void sk_gemm_s8(sk_path path, const int8_t *q, const float *qscales, int rows, int in_count,
                const int8_t *packed, const float *wscales, const int32_t *wsums, const float *bias,
                int out_count, int block_first, int block_end, float *out, int out_stride);

/// Each row of activations quantized as `sk_quantize_rows` does, then what
/// that left over quantized again: rows `2r` and `2r + 1` of `q` (`2 * rows *
/// sk_padded_in(in_count)` bytes), `scales[2 * rows]`; `residual` is scratch
/// of `in_count` floats. Per-row int8 rounds every value of a row by up to
/// half its largest value's step, an error that is the same for every
/// weight row it meets and so moves every output of a product together (a
/// log-softmax's normaliser); the second level takes it to about 14 bits.
void sk_quantize_rows_residual(sk_path path, const float *x, int rows, int in_count, int8_t *q, float *scales,
                               float *residual);

/// `sk_gemm_s8` over activations from `sk_quantize_rows_residual`: each
/// output row is the sum of its two levels' scaled products (`rows` output
/// rows, `2 * rows` quantized ones); twice the integer products, the weight
/// reads of one level.
void sk_gemm_s8_residual(sk_path path, const int8_t *q, const float *qscales, int rows, int in_count,
                         const int8_t *packed, const float *wscales, const int32_t *wsums, const float *bias,
                         int out_count, int block_first, int block_end, float *out, int out_stride);

// Int8 weights with float activations (ComputeType.int8Weights): the same
// packed weights, dequantized as they are read; every product is float.

/// Rows `block_first * 16 ..< min(block_end * 16, out_count)` dequantized,
/// row-major, into `out` (`[rows][in_count]` float): panels for sgemm.
void sk_unpack_blocks(const int8_t *packed, const float *scales, int in_count, int out_count,
                      int block_first, int block_end, float *out);

/// Whether `sk_gemv_w8` runs its vector form for `path` (AVX2 and FMA;
/// elsewhere it runs the portable one).
int sk_float_gemv_supported(sk_path path);

/// `out[r * out_stride + n] = (Σ_k x[r,k]·w[n,k]) · wscale[n] + bias[n]` with
/// float `x` (`[rows][in_count]`), for outputs
/// `block_first * 16 ..< min(block_end * 16, out_count)`. `bias` may be NULL.
/// For a few rows (decoder steps): every row rereads each block from cache.
void sk_gemv_w8(sk_path path, const float *x, int rows, int in_count, const int8_t *packed, const float *wscales,
                const float *bias, int out_count, int block_first, int block_end, float *out, int out_stride);

// Half-precision weights (ComputeType.float16Weights), row-major as the
// checkpoint stores them, float32 arithmetic.

/// Activation rows `sk_gemv_f16` takes at most (the engine's few-row limit).
#define SK_HALF_GEMV_MAX_ROWS 8

/// Whether `sk_gemv_f16` has its AVX2+FMA form on this CPU.
int sk_half_gemv_vectorized(void);

/// `out[r * out_stride + n] = Σ_k x[r,k]·w[n,k] + bias[n]` for `rows` (at most
/// SK_HALF_GEMV_MAX_ROWS) float rows `x` (`[rows][in_count]`), half weights
/// `w` (`[out][in_count]`, IEEE binary16 bits) and outputs `first ..< last`.
/// `bias` may be NULL. `form`: 0 the portable form, 1 the AVX2 form widening
/// through a buffer for every row count, 2 AVX2 widening in registers for up
/// to 2 rows, 3 the fastest (AVX-512 in registers for every row count where
/// the CPU has it). 1, 2 and 3 give the same bits (tests, benchmarks).
void sk_gemv_f16(int form, const uint16_t *w, const float *x, int rows, int in_count, const float *bias,
                 int first, int last, float *out, int out_stride);

/// `out[i] = Σ_k x[k]·w[indices[i], k]` for one float row `x` and the half
/// weight rows `indices` (`count` of them): the bits `sk_gemv_f16(form, …)`
/// gives those outputs of that row, at the cost of the rows asked for only
/// (the logits' exact values for a few candidate tokens).
void sk_gemv_f16_rows(int form, const uint16_t *w, const float *x, int in_count, const int32_t *indices, int count,
                      float *out);

/// `least` at most (`sk_logit_contenders`).
#define SK_LOGIT_CONTENDERS_MAX_LEAST 64

/// Writes into `indices` the positions of `row`'s values within `margin` of
/// its largest or, when fewer than `least` (at most
/// SK_LOGIT_CONTENDERS_MAX_LEAST) are, of its `least` largest; returns how
/// many, 0 when no value is finite, -1 when more than `capacity` would be.
/// The order of the indices is unspecified. `vectorized`: 0 the portable
/// form, 1 AVX2 where the CPU has it; the same result.
int sk_logit_contenders(int vectorized, const float *row, int count, float margin, int least, int32_t *indices,
                        int capacity);

/// Writes into `indices` the positions of `row`'s `k` (at most
/// SK_LOGIT_CONTENDERS_MAX_LEAST) largest finite values, largest first and
/// the earlier position first among equals; returns how many (fewer when
/// fewer are finite). `vectorized` as for `sk_logit_contenders`.
int sk_top_indices(int vectorized, const float *row, int count, int k, int32_t *indices);

// Attention of a few query rows over keys and values kept in float (the
// decoder's self-attention cache), half or int8 (its cross-attention cache),
// float32 arithmetic (AttentionKernels.c).

/// How key and value rows are stored.
typedef enum {
    SK_ELEMENT_FLOAT = 0,
    /// IEEE binary16 bit patterns.
    SK_ELEMENT_HALF = 1,
    /// Signed bytes, each row with its own scale (value = byte · scale).
    SK_ELEMENT_INT8 = 2,
} sk_element;

/// Head width the attention kernels take at most.
#define SK_ATTENTION_MAX_WIDTH 256

/// Whether the attention kernels have their AVX2+FMA+F16C form for heads of `width`.
int sk_attention_vectorized(int width);

/// `scores[r * scores_stride + j] = scale · s_j · Σ_d q[r * q_stride + d] · k[j * k_stride + d]`
/// for `rows` query rows and `key_count` key rows of `width` (≤
/// SK_ATTENTION_MAX_WIDTH) values, where `s_j` is `k_scales[j]` (int8 rows)
/// or 1 (`k_scales` NULL). Strides count elements. `vectorized`: 0 the
/// portable form, 1 AVX2, 2 the fastest (AVX-512 for heads of 64 where the
/// CPU has it); 1 and 2 give the same bits. The same for `sk_attention_sums`.
void sk_attention_scores(int vectorized, sk_element element, const void *k, const float *k_scales, int k_stride,
                         int key_count, int width, const float *q, int q_stride, int rows, float scale,
                         float *scores, int scores_stride);

/// `out[r * out_stride + d] (+)= Σ_j (p[r * p_stride + j] · s_j) · v[j * v_stride + d]`:
/// attention weights `p` applied to value rows, `s_j` as for the scores
/// (`v_scales`). With `accumulate` the sums continue from what `out` holds
/// (in key order: keys split over two calls sum as one call over both).
void sk_attention_sums(int vectorized, sk_element element, const void *v, const float *v_scales, int v_stride,
                       int key_count, int width, const float *p, int p_stride, int rows, int accumulate, float *out,
                       int out_stride);

// Softmax, log-sum-exp and GELU (Activations.c): the bits of the engine's
// Swift reference (VectorMath), at the CPU's vector width.

/// Whether `sk_softmax`, `sk_log_sum_exp` and `sk_gelu` run on this CPU (AVX2); callers
/// use the Swift reference where not.
int sk_softmax_vectorized(void);

/// Softmax of `count` values in place (unchanged when every value is -inf).
/// `form`: 1 AVX2, 2 the fastest (AVX-512 where the CPU has it); the same bits.
void sk_softmax(int form, float *row, int count);

/// log Σ exp(values), -inf when every value is -inf; `form` as for `sk_softmax`.
float sk_log_sum_exp(int form, const float *values, int count);

/// GELU (erf form) of `count` values in place; `form` as for `sk_softmax`.
void sk_gelu(int form, float *values, long count);

// Float products (FloatGemm.c), for CPUs whose OpenBLAS runs generic kernels.

/// The forms of `sk_sgemm`.
typedef enum {
    /// Plain C, any CPU.
    SK_FLOAT_PORTABLE = 0,
    /// 6x16 AVX2+FMA tiles.
    SK_FLOAT_AVX2 = 1,
    /// 12x32 AVX-512 tiles: the same bits as AVX2 (each output one FMA
    /// chain over k in order), twice the multiply-adds per instruction.
    SK_FLOAT_AVX512 = 2,
} sk_float_path;

/// Whether `sk_sgemm` has its AVX2+FMA form on this CPU.
int sk_float_gemm_vectorized(void);

/// The fastest form of `sk_sgemm` this CPU runs (an `sk_float_path`).
int sk_float_gemm_best(void);

/// `C = alpha · A · op(B)` (or `C += ...` when `accumulate`), row-major:
/// A is `[m, k]` (row stride `lda`), op(B) is `[k, n]`: B itself (row stride
/// `ldb`) or, with `trans_b`, the transpose of B `[n, k]`; C is `[m, n]`
/// (row stride `ldc`). `path` is an `sk_float_path` this CPU runs
/// (`sk_float_gemm_best` or below). Returns 0, or -1 if its 64·k- or
/// 128·k-byte panels could not be allocated (C untouched).
int sk_sgemm(int path, int trans_b, int m, int n, int k, float alpha,
             const float *a, int lda, const float *b, int ldb, int accumulate, float *c, int ldc);

/// `sk_sgemm(SK_FLOAT_AVX512, 1, ...)` with B given as half-precision
/// `[n, k]` rows (IEEE binary16 bits, row stride `ldb`), widened as its
/// panels are packed: the bits of widening B to float first and calling
/// `sk_sgemm`, without the float copy (`HalfMatrix` over many rows). Returns
/// 0, or -1 where the CPU has no AVX-512 form or the panels could not be
/// allocated (C untouched).
int sk_sgemm_half(int m, int n, int k, float alpha, const float *a, int lda, const uint16_t *b, int ldb,
                  int accumulate, float *c, int ldc);

#endif
