import Foundation

/// The process's memory use, for `speech bench`.
enum ResourceUsage {
    /// Peak resident set size in bytes: `VmHWM` from /proc/self/status, or
    /// `getrusage`'s `ru_maxrss` (kilobytes on Linux) where /proc is absent.
    static func peakResidentBytes() -> Int {
        if let kilobytes = statusField("VmHWM") { return kilobytes * 1024 }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    /// CPU time the process has used so far, user plus system, in seconds
    /// (every thread: the compute threads' work counts, their waiting does not).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Resident set size now, in bytes: `VmRSS` from /proc/self/status, or
    /// nil where /proc is absent (getrusage has no current figure).
    static func currentResidentBytes() -> Int? {
        statusField("VmRSS").map { $0 * 1024 }
    }

    /// A `kB` field of /proc/self/status, e.g. "VmHWM:   123456 kB".
    static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return parseStatusField(name, in: status)
    }

    /// Finds `name:` in `status` text and returns its number.
    static func parseStatusField(_ name: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first
            return number.flatMap { Int($0) }
        }
        return nil
    }
}
