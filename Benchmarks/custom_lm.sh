#!/usr/bin/env bash
# Custom language model benchmark: rare terms (drug, person, place and tool
# names) found with and without an SFCustomLanguageModelData model, and with
# the same terms as contextualStrings, through SFSpeechURLRecognitionRequest
# (requiresOnDeviceRecognition) with the default en-US model. Clips: 12
# espeak-ng sentences (Benchmarks/custom_lm/sentences.tsv), 5 corpus clips of
# real speech holding such names, and 8 corpus clips with none (the model
# must not put its terms there). Writes Benchmarks/.work/custom-lm/.
# Takes about 5 minutes on a quiet 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Benchmarks/.work/custom-lm
mkdir -p "$out"
swift build -c release --product CustomLanguageModelBenchmark
while IFS=$'\t' read -r id text; do
    [[ "$id" == \#* || -z "$id" ]] && continue
    espeak-ng -v en-us -s 150 -w "$out/$id.tmp.wav" "$text"
    sox "$out/$id.tmp.wav" -r 16000 -c 1 -b 16 "$out/$id.wav"
    rm "$out/$id.tmp.wav"
done < Benchmarks/custom_lm/sentences.tsv
OPENBLAS_NUM_THREADS=1 .build/release/CustomLanguageModelBenchmark Benchmarks/custom_lm "$out" ../shared/corpus \
    | tee "$out/results.txt"
