// Throughput of the compact-weight kernels (int8 on every path this CPU
// runs, with integer and float activations; half weights) and of the own float
// products against OpenBLAS sgemm on the engine's shapes, one thread, median of
// repeated calls.
// Build and run: Benchmarks/Int8Kernels/run.sh
#include <CFloat16.h>
#include <CSpeechKernels.h>
#include <immintrin.h>
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static float *random_floats(size_t n) {
    float *v = malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++) v[i] = (float)rand() / RAND_MAX * 2 - 1;
    return v;
}

enum { REPEATS = 9 };

__attribute__((target("f16c"))) static uint16_t *to_halves(const float *v, size_t n) {
    uint16_t *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; i++) h[i] = (uint16_t)_cvtss_sh(v[i], 0);
    return h;
}

static void shape(int rows, int in, int out) {
    float *x = random_floats((size_t)rows * in), *w = random_floats((size_t)out * in);
    float *y = malloc((size_t)rows * out * sizeof *y);
    int8_t *packed = calloc((size_t)sk_padded_out(out) * sk_padded_in(in), 1);
    float *scales = malloc(out * sizeof *scales);
    int32_t *sums = malloc(out * sizeof *sums);
    sk_pack_rows(w, 0, out, in, packed, scales, sums);
    int8_t *q = malloc((size_t)rows * sk_padded_in(in));
    float *qs = malloc(rows * sizeof *qs);
    double ops = 2.0 * rows * in * out, t[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        double start = now();
        if (rows > 8) {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, out, in, 1, x, in, w, in, 0, y, out);
        } else {
            for (int i = 0; i < rows; i++) cblas_sgemv(CblasRowMajor, CblasNoTrans, out, in, 1, w, in, x + i * in, 1, 0, y + i * out, 1);
        }
        t[r] = now() - start;
    }
    qsort(t, REPEATS, sizeof *t, compare);
    printf("%5d x %5d -> %5d  %-14s %8.3f ms %7.1f GOP/s\n", rows, in, out, rows > 8 ? "sgemm" : "sgemv per row",
           t[REPEATS / 2] * 1e3, ops / t[REPEATS / 2] * 1e-9);
    const char *names[] = {"", "int8 scalar", "int8 avx2", "int8 vnni"};
    for (int path = SK_PATH_SCALAR; path <= SK_PATH_VNNI; path++) {
        if (!sk_path_supported((sk_path)path)) continue;
        int repeats = path == SK_PATH_SCALAR ? 3 : REPEATS;
        for (int r = 0; r < repeats; r++) {
            double start = now();
            sk_quantize_rows((sk_path)path, x, rows, in, q, qs);
            sk_gemm_s8((sk_path)path, q, qs, rows, in, packed, scales, sums, NULL, out, 0, sk_padded_out(out) / 16, y, out);
            t[r] = now() - start;
        }
        qsort(t, repeats, sizeof *t, compare);
        printf("%5d x %5d -> %5d  %-14s %8.3f ms %7.1f GOP/s\n", rows, in, out, names[path],
               t[repeats / 2] * 1e3, ops / t[repeats / 2] * 1e-9);
    }
    // Int8 weights, float activations (ComputeType.int8Weights), as
    // QuantizedMatrix.multiplyInFloat runs them: the fused kernel up to 8
    // rows, else panels of about 1 MB dequantized and handed to sgemm.
    const int blocks = sk_padded_out(out) / 16;
    int panel_blocks = (1 << 18) / (16 * in);
    if (panel_blocks < 1) panel_blocks = 1;
    float *panel = malloc((size_t)panel_blocks * 16 * in * sizeof *panel);
    for (int path = SK_PATH_SCALAR; path <= SK_PATH_AVX2; path++) {
        if (!sk_float_gemv_supported((sk_path)path) || (path == SK_PATH_SCALAR && rows > 8)) continue;
        int repeats = path == SK_PATH_SCALAR ? 3 : REPEATS;
        for (int r = 0; r < repeats; r++) {
            double start = now();
            if (rows <= 8) {
                sk_gemv_w8((sk_path)path, x, rows, in, packed, scales, NULL, out, 0, blocks, y, out);
            } else {
                memset(y, 0, (size_t)rows * out * sizeof *y);
                for (int b = 0; b < blocks; b += panel_blocks) {
                    int last = b + panel_blocks < blocks ? b + panel_blocks : blocks;
                    int width = (last * 16 < out ? last * 16 : out) - b * 16;
                    sk_unpack_blocks(packed, scales, in, out, b, last, panel);
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, width, in, 1, x, in, panel, in, 1,
                                y + b * 16, out);
                }
            }
            t[r] = now() - start;
        }
        qsort(t, repeats, sizeof *t, compare);
        printf("%5d x %5d -> %5d  %-14s %8.3f ms %7.1f GOP/s\n", rows, in, out,
               path == SK_PATH_SCALAR ? "w8 f32 scalar" : (rows > 8 ? "w8 f32 panels" : "w8 f32 avx2"),
               t[repeats / 2] * 1e3, ops / t[repeats / 2] * 1e-9);
    }
    free(panel);
    // Half weights, float32 arithmetic (ComputeType.float16Weights), as
    // HalfMatrix.multiply runs them: the few-row kernel up to 8 rows, else
    // panels of about 1 MB widened and handed to the own float tiles (the
    // engine's sgemm where OpenBLAS is generic, as on the machines measured)
    // or, with AVX-512, the tiles packing straight from the halves.
    uint16_t *halves = to_halves(w, (size_t)out * in);
    int panel_rows = (1 << 18) / in < 16 ? 16 : (1 << 18) / in;
    float *wide = malloc((size_t)panel_rows * in * sizeof *wide);
    // form: 0 portable, 1 AVX2 widening through a buffer, 2 AVX2 in registers (≤ 2 rows),
    // 3 the fastest (AVX-512 in registers where the CPU has it): sk_gemv_f16's forms.
    for (int form = 0; form <= 3; form++) {
        const int vectorized = form > 0;
        if ((vectorized && !sk_half_gemv_vectorized()) || (!vectorized && rows > 8) || (form > 0 && form < 3 && rows > 8)) continue;
        int repeats = vectorized ? REPEATS : 3;
        for (int r = 0; r < repeats; r++) {
            double start = now();
            if (rows <= 8) {
                sk_gemv_f16(form, halves, x, rows, in, NULL, 0, out, y, out);
            } else {
                memset(y, 0, (size_t)rows * out * sizeof *y);
                for (int n = 0; n < out; n += panel_rows) {
                    int width = out - n < panel_rows ? out - n : panel_rows;
                    cf16_to_f32(halves + (size_t)n * in, wide, (size_t)width * in);
                    sk_sgemm(sk_float_gemm_best(), 1, rows, width, in, 1, x, in, wide, in, 1, y + n, out);
                }
            }
            t[r] = now() - start;
        }
        qsort(t, repeats, sizeof *t, compare);
        printf("%5d x %5d -> %5d  %-14s %8.3f ms %7.1f GOP/s\n", rows, in, out,
               !vectorized ? "f16 portable" : (rows > 8 ? "f16 panels" : (form == 1 ? "f16 buffered" : (form == 2 ? "f16 avx2 regs" : "f16 fastest"))),
               t[repeats / 2] * 1e3, ops / t[repeats / 2] * 1e-9);
    }
    if (rows > 8 && sk_float_gemm_best() == SK_FLOAT_AVX512) {
        for (int r = 0; r < REPEATS; r++) {
            double start = now();
            memset(y, 0, (size_t)rows * out * sizeof *y);
            sk_sgemm_half(rows, out, in, 1, x, in, halves, in, 1, y, out);
            t[r] = now() - start;
        }
        qsort(t, REPEATS, sizeof *t, compare);
        printf("%5d x %5d -> %5d  %-14s %8.3f ms %7.1f GOP/s\n", rows, in, out, "f16 packed",
               t[REPEATS / 2] * 1e3, ops / t[REPEATS / 2] * 1e-9);
    }
    free(halves); free(wide);
    free(x); free(w); free(y); free(packed); free(scales); free(sums); free(q); free(qs);
}

/// The float products (`sk_sgemm`: plain C, AVX2+FMA and AVX-512 tiles) against OpenBLAS's
/// sgemm: C[m, n] = A[m, k] · op(B), B given as [n, k] when `trans_b`.
static void float_product(int m, int n, int k, int trans_b) {
    enum { repeats = 7 };
    float *a = random_floats((size_t)m * k), *b = random_floats((size_t)n * k), *c = malloc(sizeof(float) * (size_t)m * n);
    const double ops = 2.0 * m * n * k;
    static const char *names[] = {"sgemm", "float portable", "float avx2", "float avx512"};
    for (int form = 0; form < 4; form++) {
        // form 0 is OpenBLAS; form f > 0 is sk_float_path f - 1.
        if (form > 1 && form - 1 > sk_float_gemm_best()) continue;
        double t[repeats];
        for (int r = 0; r < repeats; r++) {
            const double start = now();
            if (form == 0) {
                cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, m, n, k, 1, a, k, b,
                            trans_b ? k : n, 0, c, n);
            } else {
                sk_sgemm(form - 1, trans_b, m, n, k, 1, a, k, b, trans_b ? k : n, 0, c, n);
            }
            t[r] = now() - start;
        }
        qsort(t, repeats, sizeof *t, compare);
        printf("%5d x %5d x %5d%s  %-14s %8.3f ms %7.1f GFLOP/s\n", m, n, k, trans_b ? " Bt" : "   ",
               names[form], t[repeats / 2] * 1e3,
               ops / t[repeats / 2] * 1e-9);
    }
    free(a); free(b); free(c);
}

int main(void) {
    openblas_set_num_threads(1);
    printf("OpenBLAS: %s\n", openblas_get_config());
    float_product(256, 1500, 64, 1);
    float_product(256, 64, 1500, 0);
    float_product(1500, 512, 1536, 1);
    shape(1500, 512, 2048);
    shape(1500, 2048, 512);
    shape(1500, 512, 1536);
    shape(1, 512, 2048);
    shape(5, 512, 2048);
    shape(5, 2048, 512);
    // A beam-5 batch of 8 windows: 40 rows a decoder step.
    shape(40, 512, 1536);
    shape(40, 512, 2048);
    shape(40, 2048, 512);
    shape(1, 512, 51865);
    shape(5, 512, 51865);
    return 0;
}
