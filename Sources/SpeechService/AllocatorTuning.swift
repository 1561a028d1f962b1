import CMalloc
import Foundation
import Synchronization

/// How the `speech` tool keeps glibc's allocator from holding on to memory
/// it freed long ago. The tool is the application, so it may tune its own
/// allocator; the libraries (the faces, the engine) never call `mallopt` in
/// their host app's process.
///
/// The service (Benchmarks/RESULTS.md, "speech serve under load"): under
/// load its live heap stayed flat while its RSS rose, because glibc gives
/// each new thread (a connection's, a face session's, a streaming
/// recognizer's) one of up to 8 × cores arenas, and freed blocks inside an
/// arena are kept for reuse rather than returned. Whisper's per-request
/// buffers (mel windows, encoder output, decoder caches: 1–10 MB each) also
/// stop being mmapped once glibc's dynamic mmap threshold has risen past them,
/// so they land in those arenas too. Three settings fix it: few arenas, a
/// fixed mmap threshold (large buffers are mmapped, so freeing one unmaps
/// it), and `malloc_trim` after each job.
///
/// The other commands run one recognition at a time, on the main thread and
/// one compute helper: one arena takes 5 MB off a 2-minute file's peak (246
/// against 252 MB) at the same speed, where the service's fixed threshold
/// took 6 MB off but cost 10% of wall time (a decoder step's 1 MB logits were
/// mmapped and faulted in at every step). Figures in Benchmarks/RESULTS.md
/// ("The cross-attention cache in half").
public enum AllocatorTuning {
    /// What the process runs.
    public enum Workload: Sendable {
        /// One recognition at a time (`transcribe`, `eval`, `bench`, `compare` …): one arena.
        case oneAtATime
        /// `speech serve`: many threads and jobs; few arenas, large buffers
        /// mmapped, free memory returned after each job.
        case service
    }

    /// Arenas at most for the service (glibc's default on 2 cores is 16).
    static let arenaLimit: Int32 = 2
    /// Blocks at least this large are mmapped and unmapped when freed (service).
    static let mmapThresholdBytes: Int32 = 1 << 20

    /// Applies the settings for `workload`. Call it before the process starts
    /// threads (arenas already made stay). The environment variable
    /// `SPEECHCOMPAT_ALLOCATOR=default` (or `SPEECHCOMPAT_SERVE_ALLOCATOR=default`,
    /// its older name) leaves glibc's defaults, to measure against (the load
    /// test's A/B run). `RecognitionService.start` applies `.service` too.
    public static func apply(for workload: Workload) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["SPEECHCOMPAT_ALLOCATOR"] != "default",
              environment["SPEECHCOMPAT_SERVE_ALLOCATOR"] != "default" else { return }
        switch workload {
        case .oneAtATime:
            _ = mallopt(M_ARENA_MAX, 1)
        case .service:
            guard !applied.exchange(true, ordering: .acquiringAndReleasing) else { return }
            _ = mallopt(M_ARENA_MAX, arenaLimit)
            _ = mallopt(M_MMAP_THRESHOLD, mmapThresholdBytes)
        }
    }

    /// Whether the service's settings took effect in this process.
    static var isEnabled: Bool { applied.load(ordering: .acquiring) }
    private static let applied = Atomic(false)

    /// Returns free memory of every arena to the system; called when a job
    /// or a stream ends, so that the high-water mark of one burst does not
    /// stay resident.
    static func releaseFreeMemory() {
        guard isEnabled else { return }
        _ = malloc_trim(0)
    }

    /// The allocator's own counts, for `/health` (the load test samples them
    /// next to RSS to tell memory in use from memory merely held).
    static func statistics() -> MemoryStatistics {
        let info = mallinfo2()
        let megabyte = 1024.0 * 1024.0
        func mb(_ bytes: Int) -> Double { (Double(bytes) / megabyte * 10).rounded() / 10 }
        return MemoryStatistics(inUseMB: mb(Int(info.uordblks) + Int(info.hblkhd)),
                                heldFreeMB: mb(Int(info.fordblks)),
                                mmappedMB: mb(Int(info.hblkhd)),
                                tuned: isEnabled)
    }
}

/// `/health`'s `memory` object: what the allocator hands out and what it
/// keeps free, in MB.
struct MemoryStatistics: Encodable, Sendable {
    /// Bytes in live allocations (arena blocks in use plus mmapped blocks).
    var inUseMB: Double
    /// Free bytes the arenas keep instead of returning (fragmentation, high water).
    var heldFreeMB: Double
    /// Of `inUseMB`, bytes in mmapped blocks.
    var mmappedMB: Double
    /// Whether the service's `AllocatorTuning.apply(for: .service)` is in effect.
    var tuned: Bool

    enum CodingKeys: String, CodingKey {
        case inUseMB = "in_use_mb", heldFreeMB = "held_free_mb", mmappedMB = "mmapped_mb", tuned
    }
}
