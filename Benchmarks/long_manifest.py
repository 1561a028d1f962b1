#!/usr/bin/env python3
"""Writes a manifest of long files joined from the corpus, with their joined
references, for `speech eval --stream --live-passes` on long audio:

  long-en   every librispeech-dev-clean and ljspeech clip, in path order (124 s)
  mfa-long  the English mfa-tests clips, in manifest order, at 16 kHz mono (190 s)

Usage: long_manifest.py CORPUS_DIR OUT_DIR  (writes OUT_DIR/long-manifest.tsv)
"""
import os
import subprocess
import sys


def main(corpus, out):
    with open(os.path.join(corpus, "manifest.tsv")) as handle:
        rows = [line.rstrip("\n").split("\t") for line in handle]
    header, entries = rows[0], [row for row in rows[1:] if len(row) == len(rows[0])]
    by_path = {row[4]: row for row in entries}

    read = sorted(row[4] for row in entries if row[1] in ("librispeech-dev-clean", "ljspeech"))
    mfa = [row[4] for row in entries if row[1] == "mfa-tests" and row[2].startswith("en")]
    lines = ["\t".join(header)]
    for name, paths in (("long-en", read), ("mfa-long", mfa)):
        parts = []
        for index, path in enumerate(paths):
            # sox joins only files of one rate and channel count: 8 kHz clips are resampled.
            part = os.path.join(out, f"{name}-part{index}.wav")
            subprocess.run(["sox", os.path.join(corpus, path), "-r", "16000", "-c", "1", "-b", "16", part], check=True)
            parts.append(part)
        joined = os.path.join(out, f"{name}.wav")
        subprocess.run(["sox", *parts, joined], check=True)
        for part in parts:
            os.remove(part)
        seconds = float(subprocess.run(["soxi", "-D", joined], capture_output=True, text=True, check=True).stdout)
        reference = " ".join(by_path[path][7] for path in paths)
        lines.append("\t".join([name, "long", "en-US", f"{seconds:.1f}", os.path.abspath(joined),
                                "joined from ../shared/corpus", "as the clips'", reference]))
    with open(os.path.join(out, "long-manifest.tsv"), "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
