#!/usr/bin/env python3
"""Reference values for the tests that run a tiny synthetic Whisper model.

The tests write a CTranslate2 `model.bin` for a Whisper of width 8 (2 heads,
2 decoder layers, 16 audio positions, 12 text positions, the English-only
vocabulary of 51864 ids) whose every weight follows one formula, so this
script can rebuild the same weights without reading the file (see
`weights()` below and Tests/SpeechEngineTests/Model/TinyWhisper.swift).

On that model it ports, in float64 numpy (openai-whisper 20250625 lines):

    decoder forward    whisper/model.py  MultiHeadAttention.qkv_attention (114-139),
                                         ResidualAttentionBlock.forward (160-171),
                                         TextDecoder.forward (227-250)
    decoding loop      whisper/decoding.py  DecodingTask._main_loop (680-710),
                                            GreedyDecoder.update (276-293), the beam search
                                            and ranker of decoding_reference.py, and the
                                            result fields of DecodingTask.run (745-786)
    word alignment     whisper/timing.py  find_alignment (163-245)

Usage (from the package root):
    python3 Scripts/reference/tiny_model_reference.py > \
        Tests/SpeechEngineTests/Model/Fixtures/TinyModelReference.swift
"""
import json
import math
import sys
import zlib
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from whisper_ports import BeamSearchReference, median_filter, dtw, rank, wrap_json  # noqa: E402

WIDTH, HEADS, DECODER_LAYERS, AUDIO_CONTEXT, TEXT_CONTEXT = 8, 2, 2, 16, 12
VOCAB = 51864
EOT, SOT, NO_SPEECH, NO_TIMESTAMPS = 50256, 50257, 50361, 50362
ALIGNMENT_HEADS = [(0, 1), (1, 0)]
FIRST_WORD = 256  # ids from here on are spelled "Ġw<id>" by the synthetic tokenizer


# MARK: - The weights (must match TinyWhisper.swift)

def name_key(name):
    return sum(name.encode()) % 101


def formula(name, count, scale):
    """value[i] = scale · sin(0.37·i + 0.11·key(name) + 0.5), as float32."""
    i = np.arange(count, dtype=np.float64)
    return (scale * np.sin(0.37 * i + 0.11 * name_key(name) + 0.5)).astype(np.float32).astype(np.float64)


def tensor(name, shape):
    count = int(np.prod(shape))
    if name.endswith("/gamma"):
        values = 1.0 + formula(name, count, 0.2)
    elif name.endswith("/beta") or name.endswith("/bias"):
        values = formula(name, count, 0.05)
    else:
        values = formula(name, count, 0.4)
    values = values.astype(np.float32)
    if name == "decoder/embeddings/weight":  # stored as float16 in the test's model.bin
        values = values.astype(np.float16)
    values = values.astype(np.float64)
    return values.reshape(shape)


def features():
    """The window's audio features `[AUDIO_CONTEXT, WIDTH]` the tests feed the decoder."""
    return formula("features", AUDIO_CONTEXT * WIDTH, 0.8).reshape(AUDIO_CONTEXT, WIDTH)


# MARK: - Decoder forward

def layer_norm(x, prefix):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * tensor(prefix + "/gamma", [WIDTH]) + tensor(prefix + "/beta", [WIDTH])


def linear(x, prefix, out_count, in_count):
    return x @ tensor(prefix + "/weight", [out_count, in_count]).T + tensor(prefix + "/bias", [out_count])


def gelu(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, causal):
    """ref: model.py 114-139; returns the output and the scaled scores per head."""
    hw = WIDTH // HEADS
    out = np.zeros_like(q)
    scores = []
    for h in range(HEADS):
        cols = slice(h * hw, (h + 1) * hw)
        qk = (q[:, cols] @ k[:, cols].T) / math.sqrt(hw)
        scores.append(qk.copy())
        if causal:
            qk = qk + np.triu(np.full(qk.shape, -np.inf), 1)
        out[:, cols] = softmax(qk) @ v[:, cols]
    return out, scores


def decoder_forward(tokens, xa):
    """ref: model.py 227-250 (one sequence, no cache). Returns logits and cross-attention scores per layer/head."""
    w = WIDTH
    x = tensor("decoder/embeddings/weight", [VOCAB, w])[tokens] + tensor("decoder/position_encodings/encodings",
                                                                            [TEXT_CONTEXT, w])[:len(tokens)]
    cross_scores = {}
    for layer in range(DECODER_LAYERS):
        p = f"decoder/layer_{layer}"
        qkv = linear(layer_norm(x, p + "/self_attention/layer_norm"), p + "/self_attention/linear_0", 3 * w, w)
        out, _ = attention(qkv[:, :w], qkv[:, w:2 * w], qkv[:, 2 * w:], causal=True)
        x = x + linear(out, p + "/self_attention/linear_1", w, w)
        q = linear(layer_norm(x, p + "/attention/layer_norm"), p + "/attention/linear_0", w, w)
        kv = linear(xa, p + "/attention/linear_1", 2 * w, w)
        out, scores = attention(q, kv[:, :w], kv[:, w:], causal=False)
        for h, s in enumerate(scores):
            cross_scores[(layer, h)] = s
        x = x + linear(out, p + "/attention/linear_2", w, w)
        hidden = gelu(linear(layer_norm(x, p + "/ffn/layer_norm"), p + "/ffn/linear_0", 4 * w, w))
        x = x + linear(hidden, p + "/ffn/linear_1", w, 4 * w)
    x = layer_norm(x, "decoder/layer_norm")
    return x @ tensor("decoder/embeddings/weight", [VOCAB, w]).T, cross_scores


def log_softmax(row):
    finite = row[np.isfinite(row)]
    top = finite.max()
    return row - (top + np.log(np.exp(finite - top).sum()))


# MARK: - Decoding loop

ALLOWED = list(range(FIRST_WORD, FIRST_WORD + 8))
EOT_BOOST = 0.4


def test_filter(logits, tokens, sample_begin):
    """The filter the tests install: only eight words and EOT, EOT favoured as the text grows."""
    kept = logits[ALLOWED + [EOT]].copy()
    logits[:] = -np.inf
    logits[ALLOWED + [EOT]] = kept
    logits[EOT] += EOT_BOOST * (len(tokens) - sample_begin)


def spelled(tokens):
    return "".join(f" w{t}" for t in tokens if t < EOT)


def decode(prompt, beam_size, sample_len, length_penalty):
    xa = features()
    sample_begin = len(prompt)
    first_logits, _ = decoder_forward(prompt, xa)
    no_speech = float(np.exp(log_softmax(first_logits[0]))[NO_SPEECH])  # ref: decoding.py 689-693
    limit = min(sample_len, TEXT_CONTEXT - len(prompt))
    n = beam_size
    sequences = [list(prompt) for _ in range(n)]
    sums = [0.0] * n
    search = BeamSearchReference(beam_size, EOT) if beam_size > 1 else None
    for _ in range(limit):  # ref: decoding.py 686-707
        rows = []
        for seq in sequences:
            logits, _ = decoder_forward(seq, xa)
            row = logits[-1].copy()
            test_filter(row, seq, sample_begin)
            rows.append(row)
        logprobs = [log_softmax(r) for r in rows]
        if search is not None:
            sequences_next, _, sums_next, complete = search.update(sequences, [lp.tolist() for lp in logprobs], sums)
            if complete or not sequences_next:
                break
            sequences, sums = sequences_next, sums_next
        else:
            # ref: decoding.py 281-290 (temperature 0)
            for s in range(n):
                finished = sequences[s][-1] == EOT
                token = EOT if finished else int(np.argmax(rows[s]))
                if not finished:
                    sums[s] += float(logprobs[s][token])
                sequences[s] = sequences[s] + [token]
            if all(seq[-1] == EOT for seq in sequences):
                break
    if search is not None:
        finalists = search.finalize(sequences, sums)
    else:
        finalists = [(seq + [EOT], total) for seq, total in zip(sequences, sums)]
    scored, best = rank(finalists, sample_begin, EOT, length_penalty)
    winner = scored[best]
    text = spelled(winner["tokens"])
    # ref: decoding.py 757 and 784 — the ratio is taken on the stripped text (utils.py 45-47)
    stripped = text.strip()
    ratio = len(stripped.encode()) / len(zlib.compress(stripped.encode())) if stripped else 0.0
    ordered = sorted(scored, key=lambda s: -s["score"])
    return {"beamSize": beam_size, "sampleLength": sample_len, "lengthPenalty": length_penalty,
            "tokens": winner["tokens"], "sumLogProbability": winner["sumLogProbability"],
            "averageLogProbability": winner["sumLogProbability"] / (len(winner["tokens"]) + 1),
            "noSpeechProbability": no_speech, "compressionRatio": ratio, "text": text,
            "ranked": [{"tokens": s["tokens"], "score": s["score"]} for s in ordered]}


# MARK: - Word alignment

def align(text_tokens, frame_count):
    """ref: timing.py 163-245, with every text token its own word (each is spelled with a leading space)."""
    sot_sequence = [SOT]
    tokens = sot_sequence + [NO_TIMESTAMPS] + text_tokens + [EOT]
    logits, qks = decoder_forward(tokens, features())
    sampled = logits[len(sot_sequence):, :EOT]
    probs = softmax(sampled)
    text_probs = [float(probs[i, t]) for i, t in enumerate(text_tokens)]
    weights = np.stack([qks[head][:, :frame_count // 2] for head in ALIGNMENT_HEADS])
    weights = softmax(weights)
    mean = weights.mean(axis=-2, keepdims=True)
    std = weights.std(axis=-2, keepdims=True)
    weights = (weights - mean) / std
    weights = np.stack([[median_filter(row, 7) for row in head] for head in weights]).astype(np.float64)
    matrix = weights.mean(axis=0)[len(sot_sequence):-1]
    path = np.array(dtw((-matrix).astype(np.float32)))
    text_indices, time_indices = path[:, 0], path[:, 1]
    jumps = np.pad(np.diff(text_indices), (1, 0), constant_values=1).astype(bool)
    jump_times = time_indices[jumps] / 50
    words = []
    for i, token in enumerate(text_tokens):
        words.append({"word": f" w{token}", "start": float(jump_times[i]), "end": float(jump_times[i + 1]),
                      "probability": text_probs[i]})
    return {"textTokens": text_tokens, "frameCount": frame_count,
            "matrix": [round(float(v), 6) for v in matrix.flatten()], "path": path.tolist(), "words": words}


# MARK: - Output

LOGIT_IDS = list(range(8)) + ALLOWED + [EOT, SOT, NO_SPEECH, NO_TIMESTAMPS, NO_TIMESTAMPS + 1, VOCAB - 1]


def logits_case(tokens):
    logits, _ = decoder_forward(tokens, features())
    return {"tokens": tokens, "ids": LOGIT_IDS,
            "logits": [[float(row[i]) for i in LOGIT_IDS] for row in logits],
            "logSumExp": [float(np.log(np.exp(row - row.max()).sum()) + row.max()) for row in logits],
            "argmax": [int(np.argmax(row)) for row in logits]}


def main():
    prompt = [SOT, NO_TIMESTAMPS]
    fixture = {
        "generator": "Scripts/reference/tiny_model_reference.py",
        "dimensions": {"width": WIDTH, "heads": HEADS, "decoderLayers": DECODER_LAYERS,
                       "audioContext": AUDIO_CONTEXT, "textContext": TEXT_CONTEXT, "vocabulary": VOCAB},
        "alignmentHeads": [list(h) for h in ALIGNMENT_HEADS],
        "allowedTokens": ALLOWED, "endOfTextBoost": EOT_BOOST,
        "decoder": logits_case([SOT, NO_TIMESTAMPS, 256, 300, 40000, 7]),
        "decoding": [decode(prompt, 1, 4, None), decode(prompt, 2, 6, None), decode(prompt, 2, 6, 1.0),
                     decode(prompt, 3, 4, 0.6)],
        "alignment": [align([256, 257, 258, 259, 260], 24), align([258, 300, 1000, 261], 32)],
    }
    text = json.dumps(fixture, separators=(", ", ": "))
    sys.stdout.write(SWIFT_TEMPLATE.format(json=wrap_json(text)))


SWIFT_TEMPLATE = """// Generated by Scripts/reference/tiny_model_reference.py: do not edit by hand.
// A tiny synthetic Whisper (TinyWhisper.swift writes its model.bin) run through
// numpy ports of whisper's decoder, decoding loop and word alignment.

/// Reference values for the tiny-model tests (TextDecoder, DecodingLoop, WordAlignment).
enum TinyModelReference {{
    /// The reference as JSON (see the generator for the keys).
    static let json = #\"\"\"
{json}
\"\"\"#
}}
"""


if __name__ == "__main__":
    main()
