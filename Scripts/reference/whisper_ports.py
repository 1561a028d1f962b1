#!/usr/bin/env python3
"""Ports of the openai/whisper functions the decoding-core references follow.

Written from the reference's definitions (openai-whisper 20250625 line numbers in
each `ref:` comment), in plain Python and numpy; no torch, no numba. Used by
decoding_reference.py and tiny_model_reference.py.
"""
import math
import zlib

import numpy as np

# Multilingual special ids (whisper/tokenizer.py; SpecialTokens.swift).
EOT = 50257
SOT = 50258
TRANSCRIBE = 50359
NO_TIMESTAMPS = 50363
TIMESTAMP_BEGIN = 50364
VOCAB = 51865
SPACE = 220  # tokenizer.encode(" ")
NEG_INF = -math.inf


# MARK: - Logit rules

def suppress_blank(logits, tokens, sample_begin, suppressed):
    # ref: decoding.py 428-430 — only at the first sampled position
    if len(tokens) == sample_begin:
        logits[suppressed] = NEG_INF


def suppress_tokens(logits, tokens, sample_begin, suppressed):
    # ref: decoding.py 437-438
    logits[suppressed] = NEG_INF


def log_sum_exp(values):
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return NEG_INF
    top = finite.max()
    return float(top + np.log(np.exp(finite.astype(np.float64) - top).sum()))


def apply_timestamp_rules(logits, tokens, sample_begin, max_initial_timestamp_index=50):
    # ref: decoding.py 454-455 — <|notimestamps|> is never sampled here
    logits[NO_TIMESTAMPS] = NEG_INF
    # ref: decoding.py 459-472 — timestamps pair up, except right before EOT
    seq = list(tokens[sample_begin:])
    last_was_timestamp = len(seq) >= 1 and seq[-1] >= TIMESTAMP_BEGIN
    penultimate_was_timestamp = len(seq) < 2 or seq[-2] >= TIMESTAMP_BEGIN
    if last_was_timestamp:
        if penultimate_was_timestamp:
            logits[TIMESTAMP_BEGIN:] = NEG_INF
        else:
            logits[:EOT] = NEG_INF
    # ref: decoding.py 474-484 — timestamps never decrease; a closed segment has nonzero length
    timestamps = [t for t in seq if t >= TIMESTAMP_BEGIN]
    if timestamps:
        floor = timestamps[-1] if (last_was_timestamp and not penultimate_was_timestamp) else timestamps[-1] + 1
        logits[TIMESTAMP_BEGIN:floor] = NEG_INF
    # ref: decoding.py 486-495 — the window opens with a timestamp no later than the maximum
    if len(tokens) == sample_begin:
        logits[:TIMESTAMP_BEGIN] = NEG_INF
        if max_initial_timestamp_index is not None:
            logits[TIMESTAMP_BEGIN + max_initial_timestamp_index + 1:] = NEG_INF
    # ref: decoding.py 497-505 — compared on log-softmax values
    normaliser = log_sum_exp(logits)
    timestamp_logprob = log_sum_exp(logits[TIMESTAMP_BEGIN:]) - normaliser
    max_text_logprob = float(logits[:TIMESTAMP_BEGIN].max()) - normaliser
    if timestamp_logprob > max_text_logprob:
        logits[:TIMESTAMP_BEGIN] = NEG_INF


def finite_ranges(logits):
    """The [start, end) runs of entries that are not -inf."""
    runs, start = [], None
    for i, finite in enumerate(np.isfinite(logits)):
        if finite and start is None:
            start = i
        elif not finite and start is not None:
            runs.append([start, i])
            start = None
    if start is not None:
        runs.append([start, len(logits)])
    return runs


# MARK: - Beam search

def top_k(row, k):
    order = sorted(range(len(row)), key=lambda i: -row[i])
    return [(row[i], i) for i in order[:k]]


class BeamSearchReference:
    """ref: decoding.py 301-404, one audio, patience 1."""

    def __init__(self, beam_size, eot):
        self.beam_size, self.eot = beam_size, eot
        self.finished = {}

    def update(self, sequences, logprobs, sums):
        scores, sources = {}, {}
        # ref: decoding.py 339-346 — beam_size + 1 candidates per beam
        for j, prefix in enumerate(sequences):
            for logprob, token in top_k(logprobs[j], self.beam_size + 1):
                sequence = tuple(prefix + [token])
                scores[sequence] = sums[j] + logprob
                sources[sequence] = j
        # ref: decoding.py 349-360 — best first; finished ones set aside
        next_tokens, next_sources, next_sums, newly = [], [], [], {}
        for sequence in sorted(scores, key=scores.get, reverse=True):
            if sequence[-1] == self.eot:
                newly[sequence] = scores[sequence]
            else:
                next_tokens.append(list(sequence))
                next_sources.append(sources[sequence])
                next_sums.append(scores[sequence])
                if len(next_tokens) == self.beam_size:
                    break
        # ref: decoding.py 369-375 — keep at most beam_size finished
        for sequence in sorted(newly, key=newly.get, reverse=True):
            if len(self.finished) >= self.beam_size:
                break
            self.finished[sequence] = newly[sequence]
        complete = len(self.finished) >= self.beam_size
        return next_tokens, next_sources, next_sums, complete

    def finalize(self, sequences, sums):
        # ref: decoding.py 387-395 — top up with the best unfinished beams
        result = dict(self.finished)
        if len(result) < self.beam_size:
            for j in list(np.argsort(sums, kind="stable"))[::-1]:
                result[tuple(sequences[j] + [self.eot])] = sums[j]
                if len(result) >= self.beam_size:
                    break
        return [(list(k), v) for k, v in result.items()]


def rank(finalists, sample_begin, eot, length_penalty):
    """ref: decoding.py 199-213 and 748-757 (lengths without the prompt and EOT)."""
    scored = []
    for tokens, total in finalists:
        sampled = tokens[sample_begin:]
        if eot in sampled:
            sampled = sampled[:sampled.index(eot)]
        length = len(sampled)
        penalty = length if length_penalty is None else ((5 + length) / 6) ** length_penalty
        scored.append({"tokens": sampled, "sumLogProbability": total, "score": total / penalty})
    best = int(np.argmax([s["score"] for s in scored]))
    return scored, best


# MARK: - Segments

def split_segments(tokens, window_frames):
    """ref: transcribe.py 339-399, time_offset 0, seek counted in mel frames (input_stride 2)."""
    is_ts = [t >= TIMESTAMP_BEGIN for t in tokens]
    single_timestamp_ending = is_ts[-2:] == [False, True]
    consecutive = [i + 1 for i in range(len(tokens) - 1) if is_ts[i] and is_ts[i + 1]]
    pieces = []
    if consecutive:
        slices = list(consecutive)
        if single_timestamp_ending:
            slices.append(len(tokens))
        last = 0
        for current in slices:
            piece = tokens[last:current]
            pieces.append({"start": (piece[0] - TIMESTAMP_BEGIN) * 0.02, "end": (piece[-1] - TIMESTAMP_BEGIN) * 0.02,
                           "tokens": piece})
            last = current
        if single_timestamp_ending:
            seek = window_frames
        else:
            seek = (tokens[last - 1] - TIMESTAMP_BEGIN) * 2
    else:
        duration = window_frames / 100
        stamps = [t for t in tokens if t >= TIMESTAMP_BEGIN]
        if stamps and stamps[-1] != TIMESTAMP_BEGIN:
            duration = (stamps[-1] - TIMESTAMP_BEGIN) * 0.02
        pieces.append({"start": 0.0, "end": duration, "tokens": tokens})
        seek = window_frames
    return {"pieces": pieces, "seekFrames": seek}


# MARK: - DTW and median filter

def dtw(cost):
    """ref: timing.py 82-105 (dtw_cpu), in float32 like the reference."""
    n, m = cost.shape
    total = np.full((n + 1, m + 1), np.inf, dtype=np.float32)
    trace = -np.ones((n + 1, m + 1), dtype=np.float32)
    total[0, 0] = 0
    for j in range(1, m + 1):
        for i in range(1, n + 1):
            c0, c1, c2 = total[i - 1, j - 1], total[i - 1, j], total[i, j - 1]
            if c0 < c1 and c0 < c2:
                c, t = c0, 0
            elif c1 < c0 and c1 < c2:
                c, t = c1, 1
            else:
                c, t = c2, 2
            total[i, j] = cost[i - 1, j - 1] + c
            trace[i, j] = t
    return backtrace(trace)


def backtrace(trace):
    """ref: timing.py 58-79."""
    i, j = trace.shape[0] - 1, trace.shape[1] - 1
    trace[0, :] = 2
    trace[:, 0] = 1
    path = []
    while i > 0 or j > 0:
        path.append([i - 1, j - 1])
        if trace[i, j] == 0:
            i, j = i - 1, j - 1
        elif trace[i, j] == 1:
            i -= 1
        else:
            j -= 1
    return path[::-1]


def median_filter(values, width):
    """ref: timing.py 19-55 — reflect padding, median of each window."""
    pad = width // 2
    values = np.asarray(values, dtype=np.float32)
    if values.shape[-1] <= pad:
        return values
    padded = np.pad(values, (pad, pad), mode="reflect")
    return np.array([np.sort(padded[i:i + width])[pad] for i in range(len(values))], dtype=np.float32)


# MARK: - Punctuation merging

PREPENDED = "\"'\u201c\u00bf([{-"
APPENDED = "\"'.\u3002,\uff0c!\uff01?\uff1f:\uff1a\u201d)]}\u3001"


def merge_punctuations(words, prepended=PREPENDED, appended=APPENDED):
    """ref: timing.py 245-276. `words` are [word, tokenCount]; `in` is Python's substring test."""
    words = [list(w) for w in words]
    i, j = len(words) - 2, len(words) - 1
    while i >= 0:
        if words[i][0].startswith(" ") and words[i][0].strip() in prepended:
            words[j] = [words[i][0] + words[j][0], words[i][1] + words[j][1]]
            words[i] = ["", 0]
        else:
            j = i
        i -= 1
    i, j = 0, 1
    while j < len(words):
        if not words[i][0].endswith(" ") and words[j][0] in appended:
            words[i] = [words[i][0] + words[j][0], words[i][1] + words[j][1]]
            words[j] = ["", 0]
        else:
            i = j
        j += 1
    # ref: timing.py 331 (add_word_timestamps keeps only non-empty words)
    return [w for w in words if w[0]]


# MARK: - Compression ratio

def compression_ratio(text):
    """ref: utils.py 45-47 — zlib.compress at its default level; 0 for no text."""
    data = text.encode()
    return len(data) / len(zlib.compress(data)) if data else 0.0


def wrap_json(text, width=110):
    """Breaks compact JSON after commas outside strings (textwrap would split strings)."""
    lines, line, in_string, escaped = [], [], False, False
    for i, ch in enumerate(text):
        line.append(ch)
        if in_string:
            escaped = (ch == "\\") and not escaped
            if ch == '"' and not escaped:
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "," and len(line) >= width - 12 and text[i + 1:i + 2] == " ":
            lines.append("".join(line))
            line = []
    lines.append("".join(line))
    return "\n".join(l.lstrip(" ") for l in lines)
