// Placeholder: replaced by the CLI work.
print("speech: not built yet")
