#!/bin/sh
# Builds and runs the compact-weight kernel benchmark (int8, half; one thread) against OpenBLAS.
# Usage: Benchmarks/Int8Kernels/run.sh   (from the project root)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/speechcompat-int8-kernels
# The compiler SwiftPM builds the kernels with (Swift's clang): gcc keeps some
# tiles' accumulator arrays on the stack and would measure other code.
compiler=${CC:-$(command -v clang || echo cc)}
"$compiler" -O2 -I"$root/Sources/CSpeechKernels/include" -I"$root/Compat/System/CFloat16/include" $(pkg-config --cflags openblas) \
   "$root/Benchmarks/Int8Kernels/kernels.c" "$root"/Sources/CSpeechKernels/*.c "$root"/Compat/System/CFloat16/*.c \
   $(pkg-config --libs openblas) -lm -o "$out"
OPENBLAS_NUM_THREADS=1 "$out"
