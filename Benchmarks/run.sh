#!/usr/bin/env bash
# Reproduces every figure in Benchmarks/RESULTS.md: accuracy and speed of
# SpeechCompat against faster-whisper (same weights, same audio, same run),
# and the streaming recognizer's latency. Writes raw outputs to Benchmarks/.work/.
# Takes about 70 minutes on a quiet 2-core machine (the hour-long stream is 10 of them).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
python3 -c "import faster_whisper" 2>/dev/null || python3 -m pip install -q faster-whisper
out=Benchmarks/.work
mkdir -p "$out"
speech=.build/release/speech
corpus=../shared/corpus

# Accuracy: both engines' hypotheses scored by the same scorer. faster-whisper
# runs three times: its fallback sampling is unseeded, so its figures vary.
$speech eval $corpus/manifest.tsv --hypotheses $out/speechcompat.tsv > $out/speechcompat-wer.txt
for run in 1 2 3; do
    python3 Benchmarks/faster_whisper/eval.py $corpus/manifest.tsv $out/faster-whisper-$run.tsv
    $speech eval $corpus/manifest.tsv --score $out/faster-whisper-$run.tsv > $out/faster-whisper-wer-$run.txt
done

# The faces on the same clips, written as apps write them: the legacy URL
# request and the modern analyzer over an AVAudioFile, beside the batch run above.
for face in legacy modern; do
    $speech eval $corpus/manifest.tsv --face $face --hypotheses $out/face-$face.tsv > $out/face-$face-wer.txt
done

# Speed: a 2-minute English recording, alternating engines, min of 3 each.
sox $(ls $corpus/audio/librispeech-dev-clean/*.wav $corpus/audio/ljspeech/*.wav) $out/long-en.wav
python3 Benchmarks/faster_whisper/speed_compare.py $out/long-en.wav --speech $speech --beam 1 --beam 5 --rounds 3 \
    > $out/speed.txt

# Many recognitions at once through each face against the same one after
# another (8 legacy URL tasks on one recognizer; 4 analyzers, the default limit).
clips8=$(awk -F'\t' -v root=$corpus 'NR>1 && ($2=="librispeech-dev-clean" || $2=="ljspeech") {print root "/" $5}' \
    $corpus/manifest.tsv | head -8)
swift build -c release --product SpeechConcurrency
concurrency=$(swift build -c release --show-bin-path)/SpeechConcurrency
SPEECHCOMPAT_SPEECH_AUTHORIZATION=authorized $concurrency legacy $clips8 --rounds 2 > $out/concurrency.txt
SPEECHCOMPAT_SPEECH_AUTHORIZATION=authorized $concurrency modern $(echo $clips8 | cut -d' ' -f1-4) --rounds 2 \
    >> $out/concurrency.txt

# Streaming: a 10 s utterance in real time, and the English dev concatenation as fast as possible.
$speech bench --stream $corpus/audio/librispeech-dev-clean/2412-153948-0000.wav --realtime > $out/stream-realtime.txt
$speech bench --stream $corpus/audio/librispeech-dev-clean/2412-153948-0000.wav --realtime --padding both \
    > $out/stream-realtime-both.txt
$speech bench --stream $out/long-en.wav --fast > $out/stream-fast.txt

# Committed-stream WER against batch WER, clip by clip, over the whole corpus.
$speech eval $corpus/manifest.tsv --stream --hypotheses $out/stream.tsv > $out/stream-vs-batch.txt
$speech eval $corpus/manifest.tsv --stream --padding both --hypotheses $out/stream-both.tsv > $out/stream-both-vs-batch.txt
$speech eval $corpus/manifest.tsv --stream --padding silence --hypotheses $out/stream-silence.tsv \
    > $out/stream-vs-batch-silence.txt
# Finals over fitted windows (the default in English) against whole 30 s windows: WER, then compute and
# latency, alternating (RESULTS, "Live finals over fitted windows").
$speech eval $corpus/manifest.tsv --stream --commit-window whole --hypotheses $out/stream-whole-finals.tsv \
    > $out/stream-whole-finals-vs-batch.txt
for pair in 1 2; do
    for window in fitted whole; do
        OPENBLAS_NUM_THREADS=1 $speech bench --stream $out/long-en.wav --realtime --commit-window $window \
            --format json > $out/stream-commit-window-$window-$pair.json
    done
done

# What a live stream runs (--live-passes: every pass, deterministic) and the finals' window, on the corpus and
# on long joined files (RESULTS, "What a live stream runs, evaluated"). Words confirmed mid-speech were
# measured on branch mid-speech-finals (its --mid-speech-finals), not on main.
python3 Benchmarks/long_manifest.py $corpus $out
english=(--set mfa-tests --set librispeech-dev-clean --set ljspeech --set jfk --set cmu-arctic --set pocketsphinx
         --set moonshine-assets)
for window in fitted whole; do
    $speech eval $corpus/manifest.tsv --stream --live-passes "${english[@]}" --commit-window $window \
        --format json > $out/live-$window.json
    $speech eval $out/long-manifest.tsv --stream --live-passes --commit-window $window --format json \
        > $out/long-live-$window.json
done

# An hour of English (every English clip + 1 s of silence, repeated) streamed
# as fast as possible, RSS every 5 minutes of audio.
sox -n -r 16000 -c 1 -b 16 $out/gap1s.wav trim 0 1
mapfile -t clips < <(awk -F'\t' -v root=$corpus 'NR>1 && $3 ~ /^en/ {print root "/" $5}' $corpus/manifest.tsv)
pass=(); for clip in "${clips[@]}"; do pass+=("$clip" $out/gap1s.wav); done
sox "${pass[@]}" $out/english-pass.wav
sox $(printf "$out/english-pass.wav %.0s" {1..8}) $out/english-60min.wav trim 0 3600
$speech bench --stream $out/english-60min.wav --fast --rss-every 300 --no-batch > $out/stream-hour.txt
tail -n +1 $out/*.txt
