// glibc's allocator controls and counts (mallopt, malloc_trim, mallinfo2),
// which Swift's Glibc module does not export. `speech serve` bounds its arenas
// and returns freed memory after each job (Sources/SpeechService/AllocatorTuning.swift);
// the soak samples the live heap next to RSS to tell a leak from memory the
// allocator merely holds (Benchmarks/Soak).
#include <malloc.h>
