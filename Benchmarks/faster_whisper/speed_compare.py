#!/usr/bin/env python3
"""Compare `speech bench` with faster-whisper on one file, alternating runs in one session.

Usage:
    python3 Benchmarks/faster_whisper/speed_compare.py FILE --speech PATH/TO/speech
        [--beam 1 --beam 5] [--rounds 3] [--threads 2] [--language en]

Each round runs one `speech bench FILE --runs 1` and one `bench.py FILE --runs 1`
for every beam width, in alternation, so that both engines see the same
machine load. Each invocation loads its model afresh (load time is reported
apart). Prints, per beam: min and median wall time of each engine, the
ratio speech/faster-whisper of the minima, model load times and peak RSS.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_json(command):
    completed = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(completed.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("file")
    parser.add_argument("--speech", required=True, help="the speech executable (release build)")
    parser.add_argument("--beam", type=int, action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--language", default="en")
    args = parser.parse_args()
    beams = args.beam or [1, 5]

    results = {beam: {"speech": [], "faster-whisper": []} for beam in beams}
    for round_index in range(args.rounds):
        for beam in beams:
            ours = run_json([args.speech, "bench", args.file, "--runs", "1", "--beam", str(beam),
                             "--threads", str(args.threads), "--language", args.language, "--format", "json"])
            theirs = run_json([sys.executable, os.path.join(HERE, "bench.py"), args.file, "--runs", "1",
                               "--beam", str(beam), "--threads", str(args.threads),
                               "--language", args.language, "--json"])
            results[beam]["speech"].append(ours)
            results[beam]["faster-whisper"].append(theirs)
            print(f"round {round_index + 1} beam {beam}: speech {ours['wallSeconds']['minimum']:.2f} s, "
                  f"faster-whisper {theirs['wallSeconds']['minimum']:.2f} s", file=sys.stderr)

    audio = results[beams[0]]["speech"][0]["audioSeconds"]
    print(f"file {args.file} ({audio:.1f} s), {args.threads} threads, {args.rounds} alternating rounds")
    print(f"{'beam':>4}  {'engine':<15}{'min s':>8}{'median s':>10}{'RTF':>8}{'load s':>8}{'peak MB':>9}")
    for beam in beams:
        minima = {}
        for engine, runs in results[beam].items():
            walls = [run["wallSeconds"]["minimum"] for run in runs]
            loads = [run["modelLoadSeconds"] for run in runs]
            peak = max(run["peakResidentMegabytes"] for run in runs)
            minima[engine] = min(walls)
            print(f"{beam:>4}  {engine:<15}{min(walls):>8.2f}{statistics.median(walls):>10.2f}"
                  f"{min(walls) / audio:>8.3f}{min(loads):>8.2f}{peak:>9.0f}")
        print(f"{beam:>4}  ratio speech / faster-whisper (min): {minima['speech'] / minima['faster-whisper']:.2f}")
    same = [results[b]["speech"][-1]["text"] == results[b]["faster-whisper"][-1]["text"] for b in beams]
    print("identical text per beam: " + ", ".join(f"beam {b}: {s}" for b, s in zip(beams, same)))


if __name__ == "__main__":
    main()
