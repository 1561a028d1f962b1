#!/usr/bin/env bash
# Runs the whole test suite: fast unit tests in debug, then the full-model
# tests (real Whisper weights on real speech from ../shared) in release.
# Full-model suites (named *ModelTests, plus the sample-program and guide-example
# runs) run only with SPEECHCOMPAT_MODEL_TESTS=1, one suite at a time: each keeps
# both cores busy, and timing checks such as prompt cancellation assume that.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/check-layers.sh
Scripts/setup.sh
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-2}"
# The legacy face persists its emulated speech permission under
# $XDG_CONFIG_HOME; tests and the sample programs they run ask for it, and the
# answer belongs to this run, not to the user's ~/.config.
XDG_CONFIG_HOME="$(mktemp -d)"
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
swift test
SPEECHCOMPAT_MODEL_TESTS=1 swift test -c release -Xswiftc -enable-testing --no-parallel --filter 'ModelTests|SampleProgramTests|GuideExampleTests'
