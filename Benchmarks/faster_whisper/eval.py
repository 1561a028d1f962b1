#!/usr/bin/env python3
"""Transcribe every clip of a manifest with faster-whisper and write id<TAB>hypothesis lines.

Usage:
    python3 Benchmarks/faster_whisper/eval.py MANIFEST OUT.tsv [--set NAME]... [--beam 5]
        [--threads 2] [--model-dir DIR]
    speech eval MANIFEST --score OUT.tsv      # scores it with SpeechCompat's own scorer

Settings are faster-whisper's defaults for `transcribe` (beam 5, best_of 5,
temperature fallback 0.0..1.0, compression-ratio 2.4 / log-prob -1.0 /
no-speech 0.6 thresholds, conditioning on previous text, no VAD), with the
language taken from the manifest ("en-US" -> "en"), compute_type float32 and
2 CPU threads.
"""

import argparse
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository
import common  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("manifest")
    parser.add_argument("output")
    parser.add_argument("--set", action="append", default=[], help="only this set (repeatable)")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model-dir", default=None)
    args = parser.parse_args()

    rows = common.read_manifest(args.manifest)
    if args.set:
        rows = [row for row in rows if row["set"] in args.set]
    model_dir = common.model_dir_from_env(args.model_dir)

    start = time.perf_counter()
    model = common.load_model(model_dir, args.threads)
    print(f"Loaded {model_dir} in {time.perf_counter() - start:.2f} s; transcribing {len(rows)} clips.",
          file=sys.stderr)

    total_audio = 0.0
    total_processing = 0.0
    with open(args.output, "w", encoding="utf-8") as out:
        for index, row in enumerate(rows, 1):
            language = common.base_language(row["language"])
            clip_start = time.perf_counter()
            segments, info = model.transcribe(row["audio"], language=language, beam_size=args.beam)
            text = "".join(segment.text for segment in segments)  # the generator does the work
            seconds = time.perf_counter() - clip_start
            total_processing += seconds
            total_audio += info.duration
            out.write(f"{row['id']}\t{common.one_line(text)}\n")
            out.flush()
            print(f"[{index}/{len(rows)}] {row['id']}  {seconds:.2f} s", file=sys.stderr)

    rtf = total_processing / total_audio if total_audio else 0.0
    print(f"audio {total_audio:.1f} s, processing {total_processing:.1f} s, RTF {rtf:.3f}, "
          f"peak RSS {common.peak_rss_megabytes():.0f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
