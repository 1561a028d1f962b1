#!/usr/bin/env python3
"""Reference values for the SpeechEngine decoding-core unit tests.

Runs small inputs through whisper_ports.py, this folder's plain Python and
numpy ports of the openai/whisper functions that the engine's Decoding/
folder follows (openai-whisper 20250625 line numbers):

    logit rules      whisper/decoding.py  SuppressBlank (423-430), SuppressTokens (433-438),
                                          ApplyTimestampRules (441-505)
    beam search      whisper/decoding.py  BeamSearchDecoder.update (323-382), finalize (384-404)
    ranking          whisper/decoding.py  MaximumLikelihoodRanker.rank (199-213)
    segments         whisper/transcribe.py the `consecutive` block (339-399)
    DTW              whisper/timing.py    dtw_cpu (82-105), backtrace (58-79)
    median filter    whisper/timing.py    median_filter (19-55), reflect padding
    punctuation      whisper/timing.py    merge_punctuations (245-276), with transcribe.py's
                                          default punctuation strings (51-52)
    compression      whisper/utils.py     compression_ratio (45-47)

Each port is written from the reference's definition, not copied, and carries
a `ref:` comment naming the lines it follows. Only numpy and the standard
library are needed (no torch, no numba).

Usage (from the package root):
    python3 Scripts/reference/decoding_reference.py > \
        Tests/SpeechEngineTests/Decoding/Fixtures/DecodingReference.swift

The output is a Swift file holding the JSON in a raw string literal, so the
test target needs no resource declarations.
"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from whisper_ports import (  # noqa: E402
    EOT, SOT, SPACE, TIMESTAMP_BEGIN, TRANSCRIBE, VOCAB, BeamSearchReference, apply_timestamp_rules,
    compression_ratio, dtw, finite_ranges, median_filter, merge_punctuations, rank, split_segments, suppress_blank,
    suppress_tokens, wrap_json)

LOGIT_FILL = -20.0
PROMPT = [SOT, 50259, TRANSCRIBE]


def ts(index):
    return TIMESTAMP_BEGIN + index


def logit_case(name, filters, sampled, overrides, max_initial=50):
    logits = np.full(VOCAB, LOGIT_FILL, dtype=np.float32)
    for token, value in overrides:
        logits[token] = value
    tokens = PROMPT + sampled
    for kind in filters:
        if kind == "suppressBlank":
            suppress_blank(logits, tokens, len(PROMPT), [SPACE, EOT])
        elif kind == "suppressTokens":
            suppress_tokens(logits, tokens, len(PROMPT), SUPPRESSED)
        elif kind == "timestampRules":
            apply_timestamp_rules(logits, tokens, len(PROMPT), max_initial)
    return {"name": name, "filters": filters, "fill": LOGIT_FILL, "overrides": [[t, v] for t, v in overrides],
            "prompt": PROMPT, "sampled": sampled, "maxInitialTimestampIndex": max_initial,
            "blankTokens": [SPACE, EOT], "suppressedTokens": SUPPRESSED,
            "finiteRanges": finite_ranges(logits)}


SUPPRESSED = [1, 2, 7, 8, 50358, 50359, 50360, 50361, 50362]


def logit_cases():
    text = [(100, 4.0), (SPACE, 6.0), (EOT, 1.0)]
    return [
        logit_case("blank and EOT suppressed at the first sampled position", ["suppressBlank"], [], text),
        logit_case("blank allowed after the first sampled position", ["suppressBlank"], [ts(0)], text),
        logit_case("listed tokens suppressed everywhere", ["suppressTokens"], [ts(0), 100], text),
        logit_case("window opens with a timestamp no later than 1.00 s", ["timestampRules"], [],
                   text + [(ts(3), 2.0), (ts(50), 1.0), (ts(51), 9.0)]),
        logit_case("max initial timestamp index 10", ["timestampRules"], [], text + [(ts(3), 2.0)], max_initial=10),
        logit_case("after one opening timestamp: text, no timestamp", ["timestampRules"], [ts(10)],
                   text + [(ts(12), 3.0)]),
        logit_case("inside a segment: timestamps after the opening one only", ["timestampRules"],
                   [ts(10), 500, 600], text),
        logit_case("after a closing timestamp: a timestamp (same or later) or EOT", ["timestampRules"],
                   [ts(10), 500, ts(20)], text + [(ts(25), 1.0)]),
        logit_case("after a timestamp pair: text only, later timestamps only", ["timestampRules"],
                   [ts(10), 500, ts(20), ts(20)], text + [(ts(30), 2.0)]),
        logit_case("timestamp mass above the best text token suppresses text", ["timestampRules"],
                   [ts(0), 500], [(700, 3.0)] + [(ts(30 + k), 1.5) for k in range(10)]),
        logit_case("timestamp mass below the best text token keeps text", ["timestampRules"],
                   [ts(0), 500], [(700, 3.0)] + [(ts(30 + k), 0.5) for k in range(10)]),
        logit_case("the whole chain at the window start", ["suppressBlank", "suppressTokens", "timestampRules"],
                   [], text + [(ts(1), 0.5)]),
        logit_case("the whole chain mid-segment", ["suppressBlank", "suppressTokens", "timestampRules"],
                   [ts(1), 100, 101], text + [(7, 9.0), (ts(40), 2.0)]),
    ]


def beam_case(name, seed, beam_size, vocabulary, steps, eot_drift):
    rng = np.random.default_rng(seed)
    eot = vocabulary - 1
    prompt = [vocabulary + 3]
    search = BeamSearchReference(beam_size, eot)
    sequences = [list(prompt) for _ in range(beam_size)]
    sums = [0.0] * beam_size
    record = []
    for step in range(steps):
        logits = rng.normal(0, 1.5, size=(beam_size, vocabulary))
        if step == 0:
            logits[1:] = logits[0]  # every beam starts from the same prompt
            # An empty transcript has length 0, which the reference ranker divides by.
            logits[:, eot] = -30.0
        logits[:, eot] += eot_drift * step
        logprobs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        # Stored to 5 decimals and read back as float32 on both sides.
        logprobs = np.round(logprobs, 5).astype(np.float32).astype(np.float64)
        next_tokens, sources, next_sums, complete = search.update(sequences, logprobs.tolist(), sums)
        record.append({"logProbabilities": [round(float(v), 5) for v in logprobs.flatten()],
                       "next": next_tokens, "sources": sources, "nextSums": next_sums,
                       "finished": sorted([[list(k), v] for k, v in search.finished.items()]),
                       "complete": complete})
        if complete or not next_tokens:
            break
        sequences, sums = next_tokens, next_sums
    finalists = search.finalize(sequences, sums)
    rankings = {}
    for key, penalty in (("none", None), ("1.0", 1.0), ("0.6", 0.6)):
        scored, best = rank(finalists, len(prompt), eot, penalty)
        rankings[key] = {"scored": scored, "best": best}
    return {"name": name, "beamSize": beam_size, "vocabulary": vocabulary, "endOfText": eot, "prompt": prompt,
            "steps": record, "finalists": [[t, v] for t, v in finalists], "rankings": rankings}


def beam_cases():
    return [
        beam_case("two beams finish before the step limit", seed=1, beam_size=2, vocabulary=6, steps=8, eot_drift=0.3),
        beam_case("three beams, limit reached with beams unfinished", seed=11, beam_size=3, vocabulary=7, steps=3,
                  eot_drift=0.4),
        beam_case("five beams over a larger vocabulary", seed=5, beam_size=5, vocabulary=12, steps=10, eot_drift=0.7),
    ]


def segment_cases():
    cases = [
        ("two closed segments, then a single timestamp ending", [ts(0), 400, 401, ts(150), ts(150), 402, ts(420), ts(420), 403, 404, ts(900)], 3000),
        ("closed segments, then an unfinished one: seek to the last pair", [ts(0), 400, ts(100), ts(110), 401, 402, ts(300), ts(305), 403, 404], 3000),
        ("one closed segment ending on a pair at the end", [ts(5), 400, 401, ts(250), ts(250)], 2000),
        ("no pair, one closing timestamp: duration from it", [ts(0), 400, 401, 402, ts(212)], 3000),
        ("no pair, only <|0.00|>: the window's duration", [ts(0), 400, 401], 1234),
        ("no timestamps at all", [400, 401, 402], 2500),
        ("nothing sampled", [], 800),
    ]
    return [{"name": n, "tokens": t, "windowFrames": f, **split_segments(t, f)} for n, t, f in cases]


def dtw_cases():
    # A cost matrix whose cheap cells trace a staircase: rows 0..3 over 8 columns.
    staircase = np.full((4, 8), 1.0, dtype=np.float32)
    for r, cols in enumerate([(0, 1), (2, 3, 4), (5,), (6, 7)]):
        for c in cols:
            staircase[r, c] = -1.0
    rng = np.random.default_rng(5)
    noisy = np.round(rng.normal(0, 1, size=(5, 9)), 4).astype(np.float32)
    tall = np.round(rng.normal(0, 1, size=(6, 3)), 4).astype(np.float32)
    cases = []
    for name, cost in (("staircase of cheap cells", staircase), ("random 5 x 9", noisy), ("more rows than columns", tall)):
        cases.append({"name": name, "rows": int(cost.shape[0]), "columns": int(cost.shape[1]),
                      "cost": [float(v) for v in cost.flatten()], "path": dtw(cost)})
    return cases


def median_cases():
    rng = np.random.default_rng(9)
    long = np.round(rng.normal(0, 1, size=16), 4).astype(np.float32)
    spikes = np.array([0, 0, 9, 0, 0, 0, -9, 0, 0, 5, 5, 5, 0, 0], dtype=np.float32)
    four = np.array([3, -1, 2, 7], dtype=np.float32)
    three = np.array([3, -1, 2], dtype=np.float32)
    return [{"name": n, "width": 7, "values": [float(v) for v in x], "filtered": [float(v) for v in median_filter(x, 7)]}
            for n, x in (("random 16", long), ("isolated spikes vanish", spikes),
                         ("4 values: reflect padding as wide as allowed", four),
                         ("3 values: shorter than the padding, unchanged", three))]


def punctuation_cases():
    cases = [
        ("closing punctuation joins the previous word", [[" Hello", 1], [",", 1], [" world", 2], [".", 1]], False),
        ("opening punctuation joins the next word", [[" (", 1], ["the", 1], [" end", 1], [")", 1]], False),
        ("quotes and a dash", [[" \"", 1], ["Quote", 2], ["\"", 1], [" -", 1], [" dash", 1]], False),
        ("no merge after a trailing space", [[" a ", 1], [".", 1]], False),
        ("full-width punctuation", [[" \u4f60\u597d", 2], ["\u3002", 1], [" \u201c", 1], ["\u597d", 1], ["\u201d", 1]], False),
        # The reference tests membership with `in` on a string, so multi-character
        # punctuation that happens to be a substring merges too, and a lone space
        # (empty once stripped) joins the next word.
        ("two closing marks that are a substring of the list", [[" end", 1], [")]", 1]], True),
        ("a lone space joins the next word", [[" ", 1], ["word", 1]], True),
    ]
    return [{"name": n, "words": w, "merged": merge_punctuations(w), "substringSemantics": flag} for n, w, flag in cases]


# MARK: - Compression ratio

def compression_cases():
    texts = [
        "",
        "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.",
        "the the the the the the the the the the the the the the the the the the the the the the the the",
        "Je pense, donc je suis. Ich denke, also bin ich. 我思故我在。",
        "a",
    ]
    return [{"text": t, "ratio": compression_ratio(t)} for t in texts]


def main():
    fixture = {
        "generator": "Scripts/reference/decoding_reference.py",
        "logitRules": logit_cases(),
        "beamSearch": beam_cases(),
        "segments": segment_cases(),
        "dtw": dtw_cases(),
        "medianFilter": median_cases(),
        "compressionRatio": compression_cases(),
        "punctuation": punctuation_cases(),
    }
    text = json.dumps(fixture, separators=(", ", ": "), ensure_ascii=False)
    sys.stdout.write(SWIFT_TEMPLATE.format(json=wrap_json(text)))


SWIFT_TEMPLATE = """// Generated by Scripts/reference/decoding_reference.py: do not edit by hand.
// openai/whisper's logit rules, beam search and ranking, segment splitting, DTW,
// median filter and compression ratio, ported to numpy, on small inputs.

/// Reference values for the Decoding/ unit tests.
enum DecodingReference {{
    /// The reference as JSON (see the generator for the keys).
    static let json = #\"\"\"
{json}
\"\"\"#
}}
"""


if __name__ == "__main__":
    main()
