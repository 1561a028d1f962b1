// Placeholder: replaced by the compat work (issue 3).
public struct CMTimePlaceholder {}
