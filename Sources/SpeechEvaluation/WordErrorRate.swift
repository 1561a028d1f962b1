// Placeholder: replaced by the evaluation work (WER/CER with Whisper's normalisers).
public enum WordErrorRatePlaceholder {}
