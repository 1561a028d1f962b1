import Foundation

/// Keeps every path a suite names inside the suite: case ids (they name
/// golden files), audio paths and golden paths. A suite from an untrusted
/// pull request must not make `speech record-golden` write, or
/// `speech migrate-test` read, anywhere else on the CI machine.
///
/// Paths are compared after resolving every symbolic link and `..` the way
/// the kernel does (a link's target replaces it, then `..` climbs from
/// there), including links that dangle and links in folders that do not
/// exist yet, so neither `cases/../../etc` nor `goldens -> /etc` gets out.
/// A `corpus:PATH` audio path must stay inside the corpus root instead,
/// which comes from the environment (`SPEECHCOMPAT_CORPUS`), not the suite.
enum SuitePaths {
    /// The most symbolic links followed while resolving one path (as Linux's `MAXSYMLINKS`).
    static let maximumLinkHops = 40

    /// `path` (absolute, or relative to the working directory) with every
    /// symbolic link, `.` and `..` resolved.
    /// - Throws: `MigrationError` (`.pathOutsideSuite`) for a loop of links.
    static func resolve(_ path: String) throws -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var pending = Array(absolute.split(separator: "/").map(String.init).reversed())
        var resolved: [String] = []
        var hops = 0
        while let component = pending.popLast() {
            if component.isEmpty || component == "." { continue }
            if component == ".." {
                _ = resolved.popLast()
                continue
            }
            let candidate = "/" + (resolved + [component]).joined(separator: "/")
            guard let target = linkTarget(candidate) else {
                resolved.append(component)
                continue
            }
            hops += 1
            guard hops <= maximumLinkHops else {
                throw MigrationError(.pathOutsideSuite, "\(path) goes through more than \(maximumLinkHops) symbolic "
                                     + "links (a loop of links?); point it at a real file.", value: path)
            }
            if target.hasPrefix("/") { resolved = [] }
            pending += target.split(separator: "/").map(String.init).reversed()
        }
        return "/" + resolved.joined(separator: "/")
    }

    /// Whether `path` lies in `folder` or is `folder`; both must be resolved.
    static func isInside(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// Whether `path` is, after following links, a regular file (not a
    /// pipe or device, which would block a read or never end).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The target of the symbolic link at `path`, or nil if it is not one.
    private static func linkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
