"""Shared helpers for the faster-whisper baseline scripts.

The baseline runs the same Whisper weights SpeechCompat uses (the
CTranslate2 model folder installed by `speech assets install`) through
faster-whisper with its default decoding settings, so that accuracy and
speed can be compared in the same run on the same machine.
"""

import csv
import os
import resource
import sys

DEFAULT_MODEL_DIR = os.path.join(
    os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"),
    "speechcompat", "models", "whisper-base")


def model_dir_from_env(explicit):
    """The model folder: --model-dir, then $SPEECHCOMPAT_MODELS/whisper-base, then the XDG default."""
    if explicit:
        return explicit
    models = os.environ.get("SPEECHCOMPAT_MODELS")
    if models:
        return os.path.join(models, "whisper-base")
    return DEFAULT_MODEL_DIR


COMPUTE_TYPES = ("float32", "int8")


def load_model(model_dir, threads, compute_type="float32"):
    """Loads the CTranslate2 model on the CPU.

    float32 widens the weights' fp16 as SpeechCompat does; int8 quantises
    them on load (faster-whisper's recommendation for CPUs).
    """
    from faster_whisper import WhisperModel
    if not os.path.isfile(os.path.join(model_dir, "model.bin")):
        sys.exit(f"error: no model.bin in {model_dir}; run `speech assets install whisper-base`")
    if compute_type not in COMPUTE_TYPES:
        sys.exit(f"error: compute type {compute_type!r}: use one of {', '.join(COMPUTE_TYPES)}")
    return WhisperModel(model_dir, device="cpu", compute_type=compute_type, cpu_threads=threads)


def read_manifest(path):
    """Rows of a manifest.tsv as dicts; 'audio' is the absolute audio path.

    Fields may be quoted spreadsheet-style ("" inside stands for "), which
    the csv module undoes.
    """
    folder = os.path.dirname(os.path.abspath(path))
    rows = []
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if not row.get("id") or row["id"].startswith("#"):
                continue
            audio = row["path"]
            row["audio"] = audio if os.path.isabs(audio) else os.path.join(folder, audio)
            rows.append(row)
    return rows


def base_language(tag):
    """'en-US' -> 'en', 'zh_Hans' -> 'zh'."""
    return tag.replace("_", "-").split("-")[0].lower()


def peak_rss_megabytes():
    """Peak resident set size of this process (ru_maxrss is in kB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def one_line(text):
    """Text on one line without tabs, as the hypotheses format needs."""
    return " ".join(text.replace("\t", " ").split())
