#!/bin/sh
# Long fuzzing run of every parser target, in release, one process per
# target and seed so that a trap loses only that run and leaves its input.
#
#   Benchmarks/Fuzz/run.sh [SECONDS_PER_TARGET] [SEEDS...]
#
# Findings go to Benchmarks/FuzzFindings/; a crashing input is copied there
# as crash-<target>-<seed>.<ext>. Record the summary lines in RESULTS.md.
set -u
cd "$(dirname "$0")/../.."
seconds=${1:-120}
shift 2>/dev/null || true
seeds=${*:-1}
swift build -c release --product SpeechFuzz 2>&1 | grep -E "error|warning" && exit 1
binary=.build/release/SpeechFuzz
status=0
for target in model-bin tokenizer-json audio custom-lm manifest suite-json; do
  for seed in $seeds; do
    scratch=$(mktemp -d)
    OPENBLAS_NUM_THREADS=1 timeout $((seconds + 120)) "$binary" "$target" --iterations 100000000 \
      --seconds "$seconds" --seed "$seed" --scratch "$scratch"
    code=$?
    if [ $code -ne 0 ] && [ $code -ne 2 ]; then
      echo "$target seed $seed: exit $code (crash or hang); input kept"
      mkdir -p Benchmarks/FuzzFindings
      for input in "$scratch"/*/input*; do
        [ -e "$input" ] && cp "$input" "Benchmarks/FuzzFindings/crash-$target-$seed.${input##*.}"
      done
      status=1
    fi
    [ $code -eq 2 ] && status=1
    rm -rf "$scratch"
  done
done
exit $status
