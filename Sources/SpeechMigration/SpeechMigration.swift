import Speech
// Placeholder: the migration work (issue 7) fills this module.
