#!/usr/bin/env python3
"""Time faster-whisper on one file: model load, wall time per run (min, median), RTF, peak RSS.

Usage:
    python3 Benchmarks/faster_whisper/bench.py FILE [--beam 5] [--runs 3] [--threads 2]
        [--language en] [--model-dir DIR] [--compute-type float32|int8] [--batch-size N] [--json]

The audio is decoded once before timing (as `speech bench` does), so the
wall time covers recognition only. Settings are faster-whisper's defaults
apart from the beam. --compute-type int8 quantises the weights on load
(faster-whisper's CPU recommendation; default float32). --batch-size N runs
BatchedInferencePipeline (VAD chunks, N decoded at once, its own defaults:
no timestamps, no previous-text prompt, one temperature); 0 (the default)
runs WhisperModel.transcribe.
"""

import argparse
import json
import statistics
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the repository
import common  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("file")
    parser.add_argument("--beam", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--language", default=None, help="language code; default: detect")
    parser.add_argument("--model-dir", default=None)
    parser.add_argument("--compute-type", default="float32", choices=common.COMPUTE_TYPES)
    parser.add_argument("--batch-size", type=int, default=0,
                        help="BatchedInferencePipeline with this batch size; 0: sequential")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.runs < 1 or args.beam < 1 or args.batch_size < 0:
        parser.error("--runs and --beam must be at least 1, --batch-size at least 0")

    from faster_whisper import decode_audio

    model_dir = common.model_dir_from_env(args.model_dir)
    start = time.perf_counter()
    model = common.load_model(model_dir, args.threads, args.compute_type)
    if args.batch_size:
        from faster_whisper import BatchedInferencePipeline
        pipeline = BatchedInferencePipeline(model=model)

        def transcribe(audio):
            return pipeline.transcribe(audio, language=args.language, beam_size=args.beam,
                                       batch_size=args.batch_size)
    else:
        def transcribe(audio):
            return model.transcribe(audio, language=args.language, beam_size=args.beam)
    load_seconds = time.perf_counter() - start

    audio = decode_audio(args.file, sampling_rate=16000)
    audio_seconds = len(audio) / 16000.0
    times = []
    text = ""
    for run in range(args.runs):
        start = time.perf_counter()
        segments, _ = transcribe(audio)
        text = "".join(segment.text for segment in segments)
        times.append(time.perf_counter() - start)
        print(f"run {run + 1}/{args.runs}: {times[-1]:.3f} s", file=sys.stderr)

    result = {
        "engine": "faster-whisper",
        "file": args.file,
        "beamSize": args.beam,
        "computeType": args.compute_type,
        "batchSize": args.batch_size,
        "threads": args.threads,
        "audioSeconds": audio_seconds,
        "modelLoadSeconds": load_seconds,
        "wallSeconds": {"runs": times, "minimum": min(times), "median": statistics.median(times)},
        "realTimeFactor": min(times) / audio_seconds if audio_seconds else 0.0,
        "peakResidentMegabytes": common.peak_rss_megabytes(),
        "text": common.one_line(text),
    }
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(f"file               {args.file}\n"
              f"model              {model_dir}, {args.compute_type}, beam {args.beam}, threads {args.threads}"
              f"{f', batch {args.batch_size}' if args.batch_size else ''}\n"
              f"audio              {audio_seconds:.2f} s\n"
              f"model load         {load_seconds:.3f} s\n"
              f"wall time min      {min(times):.3f} s\n"
              f"wall time median   {statistics.median(times):.3f} s\n"
              f"real-time factor   {result['realTimeFactor']:.4f}\n"
              f"peak RSS           {result['peakResidentMegabytes']:.1f} MB")


if __name__ == "__main__":
    main()
