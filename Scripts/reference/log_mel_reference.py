#!/usr/bin/env python3
"""Reference values for the SpeechEngine audio front end tests.

Implements, in float64 numpy, Whisper's front end as openai/whisper's
`whisper/audio.py` defines it:

    mel_filters(n_mels)  = librosa.filters.mel(sr=16000, n_fft=400, n_mels=n_mels)
                           (htk=False, norm="slaney")
    log_mel_spectrogram  = pad with `padding` zeros;
                           torch.stft(n_fft=400, hop=160, window=hann_window(400),
                                      center=True, pad_mode="reflect");
                           |X|**2, drop the last frame; filters @ power;
                           log10(clamp(min=1e-10)); max(x, max - 8); (x + 4) / 4

Neither torch nor librosa is needed: the STFT and the filters are written out
here with numpy from their definitions.

Usage (from the package root):
    python3 Scripts/reference/log_mel_reference.py [CORPUS_ROOT] > \
        Tests/SpeechEngineTests/Audio/Fixtures/LogMelReference.swift

The output is a Swift file holding the JSON in a raw string literal, so the test
target needs no resource declarations.
"""
import json
import sys
import textwrap
import wave
from pathlib import Path

import numpy as np

SAMPLE_RATE = 16000
N_FFT = 400
HOP = 160
CLIP = "audio/jfk/jfk_openai_whisper.wav"
PADDING = 480000  # what whisper.transcribe passes (N_SAMPLES)
FRAMES = [0, 1, 2, 137, 550, 1098, 1099, 1100, 1101, 4099]


def hz_to_mel(hz):
    """librosa.hz_to_mel, htk=False (Slaney)."""
    hz = np.asanyarray(hz, dtype=np.float64)
    f_sp = 200.0 / 3
    mels = hz / f_sp
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = np.log(6.4) / 27.0
    return np.where(hz >= min_log_hz,
                    min_log_mel + np.log(np.maximum(hz, 1e-12) / min_log_hz) / logstep, mels)


def mel_to_hz(mels):
    """librosa.mel_to_hz, htk=False (Slaney)."""
    mels = np.asanyarray(mels, dtype=np.float64)
    f_sp = 200.0 / 3
    freqs = f_sp * mels
    min_log_hz = 1000.0
    min_log_mel = min_log_hz / f_sp
    logstep = np.log(6.4) / 27.0
    return np.where(mels >= min_log_mel,
                    min_log_hz * np.exp(logstep * (mels - min_log_mel)), freqs)


def mel_filters(n_mels, sr=SAMPLE_RATE, n_fft=N_FFT):
    """librosa.filters.mel(sr, n_fft, n_mels) with its defaults, as float32."""
    fftfreqs = np.fft.rfftfreq(n=n_fft, d=1.0 / sr)
    mel_f = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2.0), n_mels + 2))
    fdiff = np.diff(mel_f)
    ramps = np.subtract.outer(mel_f, fftfreqs)
    weights = np.zeros((n_mels, 1 + n_fft // 2))
    for i in range(n_mels):
        lower = -ramps[i] / fdiff[i]
        upper = ramps[i + 2] / fdiff[i + 1]
        weights[i] = np.maximum(0, np.minimum(lower, upper))
    enorm = 2.0 / (mel_f[2:n_mels + 2] - mel_f[:n_mels])
    weights *= enorm[:, np.newaxis]
    return weights.astype(np.float32)


def log_mel_spectrogram(audio, n_mels=80, padding=0):
    audio = np.asarray(audio, dtype=np.float64)
    if padding > 0:
        audio = np.pad(audio, (0, padding))
    padded = np.pad(audio, (N_FFT // 2, N_FFT // 2), mode="reflect")
    n_frames = 1 + (len(padded) - N_FFT) // HOP
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)  # periodic Hann
    index = np.arange(N_FFT)[None, :] + HOP * np.arange(n_frames)[:, None]
    stft = np.fft.rfft(padded[index] * window, axis=1)  # frames x 201
    magnitudes = (np.abs(stft) ** 2)[:-1].T            # 201 x frames, last frame dropped
    mel_spec = mel_filters(n_mels).astype(np.float64) @ magnitudes
    log_spec = np.log10(np.maximum(mel_spec, 1e-10))
    log_spec = np.maximum(log_spec, log_spec.max() - 8.0)
    return (log_spec + 4.0) / 4.0


def read_wav(path):
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        assert wav.getframerate() == SAMPLE_RATE
        data = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return data.astype(np.float64) / 32768.0


def main():
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3] / "shared" / "corpus"
    audio = read_wav(corpus / CLIP)
    unpadded = log_mel_spectrogram(audio)
    padded = log_mel_spectrogram(audio, padding=PADDING)
    filters = mel_filters(80)
    rows, cols = np.nonzero(filters)
    fixture = {
        "generator": "Scripts/reference/log_mel_reference.py",
        "clip": CLIP,
        "sampleCount": int(len(audio)),
        "filters": {
            "melCount": 80,
            "binCount": int(filters.shape[1]),
            "rowSums": [float(s) for s in filters.sum(axis=1)],
            "nonzero": [[int(r), int(c), float(filters[r, c])] for r, c in zip(rows, cols)],
        },
        "unpadded": {
            "paddingSamples": 0,
            "frameCount": int(unpadded.shape[1]),
            "globalMax": float(unpadded.max()),
            "frames": {str(f): [round(float(v), 7) for v in unpadded[:, f]]
                       for f in FRAMES if f < unpadded.shape[1]},
        },
        "padded": {
            "paddingSamples": PADDING,
            "frameCount": int(padded.shape[1]),
            "globalMax": float(padded.max()),
            "frames": {str(f): [round(float(v), 7) for v in padded[:, f]]
                       for f in FRAMES if f < padded.shape[1]},
        },
    }
    text = json.dumps(fixture, separators=(", ", ": "))
    body = textwrap.fill(text, width=110, break_long_words=False, break_on_hyphens=False)
    sys.stdout.write(SWIFT_TEMPLATE.format(json=body))


SWIFT_TEMPLATE = """// Generated by Scripts/reference/log_mel_reference.py: do not edit by hand.
// Whisper's log-mel front end (openai/whisper audio.py) in float64 numpy on
// ../shared/corpus/audio/jfk/jfk_openai_whisper.wav (public domain speech), a few
// frames x 80 bins, plus the nonzero Slaney filter weights (librosa formula).

/// Reference values for `LogMelSpectrogramTests` and `MelFilterBankTests`.
enum LogMelReference {{
    /// The reference as JSON (see the generator for the keys).
    static let json = #\"\"\"
{json}
\"\"\"#
}}
"""


if __name__ == "__main__":
    main()
