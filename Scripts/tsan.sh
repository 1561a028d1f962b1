#!/usr/bin/env bash
# The test suite under ThreadSanitizer (issue 16): builds the tests with
# -sanitize=thread in .build/tsan (apart from the normal build, so the two
# do not rebuild each other) and fails on any data-race report, even when
# every test passed. Run by .ci/run after Scripts/test.sh.
#
#   Scripts/tsan.sh                  the debug unit suites (what CI runs)
#   Scripts/tsan.sh --models [FILTER] the full-model suites (all of Scripts/test.sh's
#                                    by default), in release, SPEECHCOMPAT_MODEL_TESTS=1;
#                                    about 2.5 hours on 2 cores, so not in CI: run it
#                                    whole or a FILTER at a time (Benchmarks/RESULTS.md)
#   Scripts/tsan.sh --filter REGEX   only the matching suites (debug)
#
# Reports are kept in .build/tsan/reports.txt. No suppressions are needed
# today; Scripts/tsan-suppressions.txt is where a proven false positive in a
# system library would go, with its reason.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${TSAN_SCRATCH:-.build/tsan}"
config=(-c debug)
filter=()
model_tests=0
# The same full-model suites as Scripts/test.sh runs.
all_model_suites='ModelTests|SampleProgramTests|GuideExampleTests'
while (($#)); do
    case "$1" in
        --models) model_tests=1; config=(-c release -Xswiftc -enable-testing)
                  filter=(--filter "${2:-$all_model_suites}"); [[ $# -gt 1 ]] && shift ;;
        --filter) filter=(--filter "$2"); shift ;;
        *) echo "Usage: Scripts/tsan.sh [--models [FILTER]] [--filter REGEX]" >&2; exit 64 ;;
    esac
    shift
done
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
XDG_CONFIG_HOME="$(mktemp -d)"
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
# history_size: deeper stacks for the other side of a race; exitcode: a race
# fails the test process even if every expectation passed.
tsan_options="halt_on_error=0 history_size=4 second_deadlock_stack=1 exitcode=66"
if [[ -s Scripts/tsan-suppressions.txt ]]; then
    tsan_options+=" suppressions=$PWD/Scripts/tsan-suppressions.txt"
fi
export TSAN_OPTIONS="${TSAN_OPTIONS:-$tsan_options}"
if [[ $model_tests == 1 ]]; then export SPEECHCOMPAT_MODEL_TESTS=1; filter+=(--no-parallel); fi
mkdir -p "$scratch"
log="$scratch/test.log"
status=0
swift test --sanitize=thread --scratch-path "$scratch" "${config[@]}" "${filter[@]}" 2>&1 | tee "$log" || status=$?
grep -A30 "WARNING: ThreadSanitizer" "$log" > "$scratch/reports.txt" || true
races=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
summary=$(grep -E "^(✔|✘) Test run with|Executed [0-9]+ tests" "$log" | tail -n 2 || true)
echo "TSan: $races report(s); $summary"
if [[ $races -gt 0 ]]; then
    echo "error: ThreadSanitizer reported $races data race(s); see $scratch/reports.txt" >&2
    exit 1
fi
exit "$status"
