#!/usr/bin/env python3
"""Compare `speech bench` with faster-whisper on one file, alternating runs in one session.

Usage:
    python3 Benchmarks/faster_whisper/speed_compare.py FILE --speech PATH/TO/speech
        [--beam 1 --beam 5] [--rounds 3] [--threads 2] [--language en]
        [--batch-size 8] [--theirs float32,int8,int8-batched]
        [--ours-compute-type int8-encoder ...] [--baseline PATH/TO/older/speech] [--busy N]

Every configuration a CPU user picks runs once per round, ours and theirs in
alternation, so that every engine sees the same machine load:

    ours:   speech (window by window), speech --batch-size N (N chunks at once),
            each in the default compute type and in every --ours-compute-type
    theirs: faster-whisper float32, int8, int8 with BatchedInferencePipeline (batch N)

for every beam width. --baseline adds another build of `speech` (its
configurations labelled "baseline"), so a change is paired with the build
before it in the same rounds; --busy N keeps N busy-loop processes running
throughout, as on a machine shared with other work. Each invocation loads
its model afresh (load time is reported apart) in its own process, so peak
RSS is per configuration. Prints, per beam and configuration: min and median
wall time, RTF, load time, peak RSS; then the ratios ours / theirs of the
minima and of the medians (below 1 means we are faster). --json prints all runs as one JSON object instead.
"""

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
THEIRS = {
    "float32": ("faster-whisper float32", ["--compute-type", "float32"], False),
    "int8": ("faster-whisper int8", ["--compute-type", "int8"], False),
    "int8-batched": ("faster-whisper int8 batched", ["--compute-type", "int8"], True),
    "float32-batched": ("faster-whisper float32 batched", ["--compute-type", "float32"], True),
}


def run_json(command):
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed ({completed.returncode}):\n{completed.stderr[-2000:]}")
    return json.loads(completed.stdout)


def configurations(args):
    """(label, side, command without the beam) for every configuration, ours first."""
    builds = [("speech", args.speech)] + ([("baseline", args.baseline)] if args.baseline else [])
    result = []
    for name, executable in builds:
        common_ours = [executable, "bench", args.file, "--runs", "1", "--threads", str(args.threads),
                       "--language", args.language, "--format", "json"]
        for compute_type in [None] + args.ours_compute_type:
            command = common_ours + (["--compute-type", compute_type] if compute_type else [])
            suffix = f" {compute_type}" if compute_type else ""
            result.append((f"{name}{suffix}", "ours", command))
            if args.batch_size:
                result.append((f"{name} batched {args.batch_size}{suffix}", "ours",
                               command + ["--batch-size", str(args.batch_size)]))
    common_theirs = [sys.executable, os.path.join(HERE, "bench.py"), args.file, "--runs", "1",
                     "--threads", str(args.threads), "--language", args.language, "--json"]
    for key in args.theirs.split(","):
        if key not in THEIRS:
            sys.exit(f"error: unknown faster-whisper configuration {key!r}: use {', '.join(THEIRS)}")
        label, extra, batched = THEIRS[key]
        batch = ["--batch-size", str(args.batch_size or 8)] if batched else []
        if batched:
            label += f" {args.batch_size or 8}"
        result.append((label, "theirs", common_theirs + extra + batch))
    return result


@contextlib.contextmanager
def busy_processes(count):
    """`count` processes that spin on a core each until the block ends."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def interleaved(configs):
    """Ours and theirs alternating (o1 t1 o2 t2 t3 …), so neither side runs in a block."""
    ours = [c for c in configs if c[1] == "ours"]
    theirs = [c for c in configs if c[1] == "theirs"]
    order = []
    while ours or theirs:
        if ours:
            order.append(ours.pop(0))
        if theirs:
            order.append(theirs.pop(0))
    return order


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("file")
    parser.add_argument("--speech", required=True, help="the speech executable (release build)")
    parser.add_argument("--beam", type=int, action="append", default=[])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--language", default="en")
    parser.add_argument("--batch-size", type=int, default=8,
                        help="batch size of both batched modes; 0 leaves ours batched out (default: 8)")
    parser.add_argument("--theirs", default="float32,int8,int8-batched",
                        help="faster-whisper configurations, comma-separated, of: " + ", ".join(THEIRS))
    parser.add_argument("--ours-compute-type", action="append", default=[],
                        help="also run ours in this compute type (repeatable; the default type always runs)")
    parser.add_argument("--baseline", help="another speech executable to pair with --speech (e.g. the build before)")
    parser.add_argument("--busy", type=int, default=0,
                        help="busy-loop processes kept running throughout, as on a shared machine (default: 0)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    beams = args.beam or [1, 5]
    configs = configurations(args)

    runs = {(label, beam): [] for label, _, _ in configs for beam in beams}
    with busy_processes(args.busy):
        measure(args, configs, beams, runs)
    report(args, configs, beams, runs)


def measure(args, configs, beams, runs):
    for round_index in range(args.rounds):
        # Every other round runs in reverse order, so no configuration always runs first or last.
        order = interleaved(configs)
        if round_index % 2:
            order.reverse()
        for beam in beams:
            for label, _, command in order:
                result = run_json(command + ["--beam", str(beam)])
                runs[(label, beam)].append(result)
                print(f"round {round_index + 1} beam {beam}: {label} {result['wallSeconds']['minimum']:.2f} s",
                      file=sys.stderr)


def report(args, configs, beams, runs):
    if args.json:
        print(json.dumps([{"configuration": label, "beam": beam, "runs": results}
                          for (label, beam), results in runs.items()], indent=2))
        return
    audio = runs[(configs[0][0], beams[0])][0]["audioSeconds"]
    busy = f", beside {args.busy} busy process{'es' if args.busy > 1 else ''}" if args.busy else ""
    print(f"file {args.file} ({audio:.1f} s), {args.threads} threads, {args.rounds} alternating rounds{busy}")
    width = max(len(label) for label, _, _ in configs) + 2
    for beam in beams:
        print(f"\nbeam {beam}")
        print(f"  {'configuration':<{width}}{'min s':>8}{'median s':>10}{'RTF':>8}{'load s':>8}{'peak MB':>9}")
        summary = {}
        for label, _, _ in configs:
            results = runs[(label, beam)]
            walls = [r["wallSeconds"]["minimum"] for r in results]
            summary[label] = (min(walls), statistics.median(walls))
            print(f"  {label:<{width}}{min(walls):>8.2f}{statistics.median(walls):>10.2f}"
                  f"{min(walls) / audio:>8.3f}{min(r['modelLoadSeconds'] for r in results):>8.2f}"
                  f"{max(r['peakResidentMegabytes'] for r in results):>9.0f}")
        print(f"  ratio ours / theirs, min (median):")
        for ours, side, _ in configs:
            if side != "ours":
                continue
            cells = [f"{theirs}: {summary[ours][0] / summary[theirs][0]:.2f}x "
                     f"({summary[ours][1] / summary[theirs][1]:.2f}x)"
                     for theirs, other, _ in configs if other == "theirs"]
            print(f"    {ours:<{width}}" + "; ".join(cells))
        if args.baseline:
            print(f"  ratio speech / baseline, min (median):")
            for label, side, _ in configs:
                if side == "ours" and label.startswith("speech"):
                    before = "baseline" + label[len("speech"):]
                    print(f"    {label:<{width}}{summary[label][0] / summary[before][0]:.2f}x "
                          f"({summary[label][1] / summary[before][1]:.2f}x)")


if __name__ == "__main__":
    main()
