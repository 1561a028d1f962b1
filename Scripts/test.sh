#!/usr/bin/env bash
# Runs the whole test suite: fast unit tests in debug, then the full-model
# tests (real Whisper weights on real speech from ../shared) in release.
# Full-model suites (named *ModelTests, plus the sample-program and guide-example
# runs) run only with SPEECHCOMPAT_MODEL_TESTS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-2}"
swift test
SPEECHCOMPAT_MODEL_TESTS=1 swift test -c release -Xswiftc -enable-testing --filter 'ModelTests|SampleProgramTests|GuideExampleTests'
