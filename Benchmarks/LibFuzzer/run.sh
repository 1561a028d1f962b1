#!/bin/sh
# Coverage-guided fuzzing of one SpeechFuzzing target with libFuzzer
# (Swift's -sanitize=fuzzer), in a separate build folder.
#
#   [CONFIG=debug|release] Benchmarks/LibFuzzer/run.sh TARGET SECONDS
#
# Links with lld (gold fails on libFuzzer's main next to SwiftPM's entry
# alias).
# TARGET: model-bin, tokenizer-json, audio, custom-lm, manifest, suite-json.
# Crashes are written to Benchmarks/FuzzFindings/libfuzzer-TARGET-*.
set -eu
cd "$(dirname "$0")/../.."
target=${1:?target}
seconds=${2:-60}
build=.build/libfuzzer
config=${CONFIG:-release}
swift build -c "$config" --scratch-path "$build" --product SpeechLibFuzzer \
  -Xswiftc -sanitize=fuzzer -Xswiftc -DSPEECH_LIBFUZZER -Xswiftc -use-ld=lld 2>&1 | grep -E "error|warning" && exit 1
corpus=$(mktemp -d)
swift build -c "$config" --product SpeechFuzz 2>&1 | grep -E "error|warning" && exit 1
.build/"$config"/SpeechFuzz "$target" --write-seeds "$corpus" >/dev/null
case $target in
  audio) ext=wav ;; model-bin) ext=bin ;; manifest) ext=tsv ;; *) ext=json ;;
esac
mkdir -p Benchmarks/FuzzFindings
SPEECH_FUZZ_TARGET=$target SPEECH_FUZZ_EXTENSION=$ext OPENBLAS_NUM_THREADS=1 \
  "$build/$config"/SpeechLibFuzzer -max_total_time="$seconds" -max_len=400000 -rss_limit_mb=4096 \
  -artifact_prefix="Benchmarks/FuzzFindings/libfuzzer-$target-" "$corpus"
rm -rf "$corpus"
