#!/usr/bin/env bash
# The main job: installs what is missing, then transcribes the bundled sample
# clip with the `speech` tool (whisper-base, beam search, word timings).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-2}"
exec .build/release/speech transcribe Samples/audio/sample.wav "$@"
