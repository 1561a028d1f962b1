#!/usr/bin/env bash
# Soak: one hour of English speech through each Speech face (legacy rolling
# buffer request, modern SpeechAnalyzer on an AsyncStream), RSS, threads and
# open files sampled every 5 minutes of audio. Figures: Benchmarks/RESULTS.md.
#
#   Benchmarks/Soak/run.sh [speed] [faces]     e.g. run.sh 1 "legacy modern"
#
# speed: multiple of real time the buffers arrive at (1 = live, the default).
# SOAK_MAX_LEAD (default 30): the feeder waits while it is that many seconds of
# audio ahead of the face's latest result, so a machine too busy for `speed`
# slows the feed instead of queueing audio (0 = never wait, a strict live source).
# The faces run one after the other unless SOAK_PARALLEL=1 (each then gets a core).
set -euo pipefail
cd "$(dirname "$0")/../.."
speed="${1:-1}"
faces="${2:-legacy modern}"
out=Benchmarks/.work
hour=$out/english-60min.wav
corpus=../shared/corpus
mkdir -p "$out"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
export XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$(mktemp -d)}"
export SPEECHCOMPAT_SPEECH_AUTHORIZATION="${SPEECHCOMPAT_SPEECH_AUTHORIZATION:-authorized}"

# The hour: every English corpus clip + 1 s of silence, repeated (as Benchmarks/run.sh builds it).
if [[ ! -s $hour ]]; then
    sox -n -r 16000 -c 1 -b 16 $out/gap1s.wav trim 0 1
    mapfile -t clips < <(awk -F'\t' -v root=$corpus 'NR>1 && $3 ~ /^en/ {print root "/" $5}' $corpus/manifest.tsv)
    pass=(); for clip in "${clips[@]}"; do pass+=("$clip" $out/gap1s.wav); done
    sox "${pass[@]}" -r 16000 -c 1 -b 16 $out/english-pass.wav
    sox $(printf "$out/english-pass.wav %.0s" {1..12}) $hour trim 0 3600
fi
swift build -c release --product SpeechSoak
soak=$(swift build -c release --show-bin-path)/SpeechSoak
lead=("--max-lead" "${SOAK_MAX_LEAD:-30}")
[[ "${SOAK_MAX_LEAD:-30}" == 0 ]] && lead=()
pids=()
for face in $faces; do
    if [[ "${SOAK_PARALLEL:-0}" == 1 ]]; then
        "$soak" "$face" "$hour" --speed "$speed" "${lead[@]}" > "$out/soak-$face.txt" 2> "$out/soak-$face.log" &
        pids+=($!)
    else
        "$soak" "$face" "$hour" --speed "$speed" "${lead[@]}" > "$out/soak-$face.txt" 2> "$out/soak-$face.log"
    fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
for face in $faces; do echo "== $face"; cat "$out/soak-$face.txt"; done
