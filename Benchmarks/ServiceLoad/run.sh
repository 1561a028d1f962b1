#!/usr/bin/env bash
# Load test of `speech serve` (not part of CI's default run): builds the release
# tool, then runs load.py (60 s, loopback only) and prints its JSON summary.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product speech >&2
exec python3 Benchmarks/ServiceLoad/load.py "$@"
