// What the soak watches in its own process, read from /proc/self: resident
// memory, threads and open file descriptors. A leak in any of them over an
// hour of audio shows as a rising column in the soak's table. glibc's own
// counts sit beside RSS: a rising live heap is memory something still holds
// (a leak, or state that grows with the stream); RSS rising over a flat live
// heap is freed memory the allocator keeps (arenas, fragmentation).

import CMalloc
import Foundation

/// One reading of the process's resources at a point of the soak.
struct ProcessSample: Sendable {
    /// Seconds of audio handed to the face when the sample was taken.
    let audioSeconds: Double
    /// Seconds of wall-clock time since the soak started.
    let wallSeconds: Double
    /// Resident set size (`VmRSS`), in mebibytes.
    let residentMiB: Double
    /// Peak resident set size so far (`VmHWM`), in mebibytes.
    let peakResidentMiB: Double
    /// Bytes in live allocations (glibc's arena blocks in use plus mmapped blocks), in mebibytes.
    let liveHeapMiB: Double
    /// Free bytes glibc's arenas keep rather than return to the system, in mebibytes.
    let heldFreeMiB: Double
    /// Threads of the process (`Threads` in /proc/self/status).
    let threadCount: Int
    /// Open file descriptors (entries of /proc/self/fd, less the one listing them).
    let openFileCount: Int
    /// Results the face had delivered when the sample was taken.
    let resultCount: Int
    /// CPU seconds the process has used (user plus system, every thread):
    /// against audio time it says whether the face keeps up with live audio.
    let cpuSeconds: Double

    /// Reads /proc/self now. Fields /proc does not provide read as -1.
    static func take(audioSeconds: Double, wallSeconds: Double, resultCount: Int) -> ProcessSample {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Double {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                let value = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first
                return value.flatMap { Double($0) } ?? -1
            }
            return -1
        }
        // Listing the folder opens one descriptor of its own: not the process's.
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count).map { $0 - 1 } ?? -1
        let heap = mallinfo2()
        let mebibyte = 1024.0 * 1024.0
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
        return ProcessSample(audioSeconds: audioSeconds, wallSeconds: wallSeconds,
                             residentMiB: field("VmRSS") / 1024, peakResidentMiB: field("VmHWM") / 1024,
                             liveHeapMiB: Double(heap.uordblks + heap.hblkhd) / mebibyte,
                             heldFreeMiB: Double(heap.fordblks) / mebibyte,
                             threadCount: Int(field("Threads")), openFileCount: descriptors, resultCount: resultCount,
                             cpuSeconds: cpu)
    }

    /// The table's header, tab-separated (the same columns as `row`).
    static let header = "audio_min\twall_s\trss_mib\tpeak_mib\tlive_heap_mib\theld_free_mib\tthreads\tfds\tresults\tcpu_s"

    /// This sample as one tab-separated row.
    var row: String {
        String(format: "%.1f\t%.0f\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%d\t%d\t%.0f", audioSeconds / 60, wallSeconds, residentMiB,
               peakResidentMiB, liveHeapMiB, heldFreeMiB, threadCount, openFileCount, resultCount, cpuSeconds)
    }
}

/// The samples of one soak and the verdict on them.
struct SoakReport: Sendable {
    let face: String
    let samples: [ProcessSample]
    let words: Int
    let effectiveSpeed: Double
    /// Wall seconds the feeder waited for the face to catch up (`--max-lead`).
    let waitedSeconds: Double

    /// Growth of a column from the first sample after warm-up (the models
    /// loaded, the first decodes done) to the last.
    func growth(_ value: (ProcessSample) -> Double) -> Double {
        guard samples.count >= 3 else { return 0 }
        return value(samples[samples.count - 1]) - value(samples[1])
    }

    /// CPU seconds per minute of audio over the whole soak.
    var cpuPerAudioMinute: Double {
        guard let last = samples.last, last.audioSeconds > 0 else { return 0 }
        return last.cpuSeconds / last.audioSeconds * 60
    }

    /// The report printed at the end: the table, then one summary line.
    var text: String {
        var lines = [ProcessSample.header] + samples.map(\.row)
        lines.append(String(format: "SUMMARY face=%@ words=%d speed=%.2fx waited_s=%.0f rss_growth_mib=%.1f live_heap_growth_mib=%.1f threads_growth=%.0f fds_growth=%.0f cpu_s_per_audio_min=%.1f",
                            face, words, effectiveSpeed, waitedSeconds, growth(\.residentMiB), growth(\.liveHeapMiB), growth { Double($0.threadCount) },
                            growth { Double($0.openFileCount) }, cpuPerAudioMinute))
        return lines.joined(separator: "\n")
    }
}
