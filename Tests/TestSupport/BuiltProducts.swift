import Foundation

/// Products of this package that tests run as programs, as a user would.
public enum BuiltProducts {
    /// The executable product `name`, built next to the test binary: in its
    /// folder or one of the three above (the bundle layout differs between
    /// SwiftPM's debug and release builds).
    /// - Throws: ``FixtureError`` naming the `swift build --product` command
    ///   when it was not built.
    public static func executable(_ name: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw FixtureError("\(name) was not built next to \(testBinary.path); run `swift build --product \(name)` first.")
    }
}
