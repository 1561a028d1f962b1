#!/usr/bin/env bash
# Runs the whole test suite: fast unit tests in debug, then the full-model
# tests (real Whisper weights on real speech from ../shared) in release.
# Full-model suites (named *ModelTests, plus the sample-program and guide-example
# runs) run only with SPEECHCOMPAT_MODEL_TESTS=1, one suite at a time: each keeps
# both cores busy, and timing checks such as prompt cancellation assume that.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-2}"
swift test
SPEECHCOMPAT_MODEL_TESTS=1 swift test -c release -Xswiftc -enable-testing --no-parallel --filter 'ModelTests|SampleProgramTests|GuideExampleTests'
