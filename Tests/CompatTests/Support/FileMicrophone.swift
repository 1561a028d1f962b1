import Foundation

/// An ALSA `file`-plugin microphone for tests (DESIGN.md "A microphone without
/// a sound card"): a corpus clip converted to raw S16 mono 16 kHz with sox,
/// and an ALSA configuration defining `testmic` and `testmicplug` over it.
struct FileMicrophone {
    /// The folder holding the raw audio and the configuration.
    let directory: URL
    /// The raw S16_LE mono 16 kHz samples.
    let rawURL: URL
    /// The ALSA configuration file to load in process.
    let configurationURL: URL
    /// The capture PCM to open.
    let deviceName = "testmicplug"

    /// Builds the microphone from a corpus clip.
    init(clip: URL) throws {
        directory = try AudioSignals.temporaryDirectory()
        rawURL = directory.appendingPathComponent("speech16k.s16")
        configurationURL = directory.appendingPathComponent("testmic.conf")
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = [clip.path, "-t", "raw", "-e", "signed-integer", "-b", "16", "-c", "1", "-r", "16000", rawURL.path]
        try sox.run()
        sox.waitUntilExit()
        guard sox.terminationStatus == 0 else {
            throw NSError(domain: "FileMicrophone", code: Int(sox.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "sox could not convert \(clip.path)"])
        }
        let configuration = """
        pcm.testmic { type file slave.pcm "null" file "/dev/null" infile "\(rawURL.path)" format "raw" }
        pcm.testmicplug { type plug slave { pcm "testmic" format S16_LE rate 16000 channels 1 } }
        """
        try configuration.write(to: configurationURL, atomically: true, encoding: .utf8)
    }

    /// The raw samples the microphone will deliver.
    func samples() throws -> [Int16] {
        let data = try Data(contentsOf: rawURL)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Removes the temporary folder.
    func remove() { try? FileManager.default.removeItem(at: directory) }
}
