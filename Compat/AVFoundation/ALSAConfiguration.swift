// Which ALSA capture device to open and how: the device name and optional
// configuration file from the environment, the in-process configuration tree,
// and the length of a `file` plugin's infile (so capture stops where it ends).

import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// The ALSA capture device chosen from the environment.
///
/// `SPEECHCOMPAT_ALSA_DEVICE` names the PCM (default `default`);
/// `SPEECHCOMPAT_ALSA_CONFIG` names a configuration file loaded in process on
/// top of the system configuration (`snd_config_load` + `snd_pcm_open_lconf`),
/// so test devices such as an ALSA `file` plugin need no `ALSA_CONFIG_PATH`.
struct ALSAConfiguration: Sendable {
    /// The PCM name, e.g. `default`, `hw:0` or `testmic`.
    let deviceName: String
    /// A configuration file to load in process, if any.
    let configurationPath: String?

    /// The environment variable naming the capture PCM.
    static let deviceVariable = "SPEECHCOMPAT_ALSA_DEVICE"
    /// The environment variable naming an extra ALSA configuration file.
    static let configurationVariable = "SPEECHCOMPAT_ALSA_CONFIG"

    /// The configuration from the process environment.
    static func fromEnvironment() -> ALSAConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let device = environment[deviceVariable].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let path = environment[configurationVariable].flatMap { $0.isEmpty ? nil : $0 }
        return ALSAConfiguration(deviceName: device, configurationPath: path)
    }

    /// A configuration tree: the system tree plus `configurationPath`, merged.
    /// The caller deletes it with `snd_config_delete`.
    func loadTree() throws -> OpaquePointer {
        var global: OpaquePointer?
        var status = snd_config_update_ref(&global)
        guard status >= 0, let global else { throw failure("reading the system ALSA configuration", status) }
        defer { snd_config_unref(global) }
        var tree: OpaquePointer?
        status = snd_config_copy(&tree, global)
        guard status >= 0, let tree else { throw failure("copying the ALSA configuration", status) }
        guard let configurationPath else { return tree }
        guard FileManager.default.isReadableFile(atPath: configurationPath) else {
            snd_config_delete(tree)
            throw AudioError.make(kAudioHardwareBadDeviceError,
                                  "The ALSA configuration file \(configurationPath) (from "
                                  + "\(ALSAConfiguration.configurationVariable)) does not exist or is not readable.")
        }
        var input: OpaquePointer?
        status = snd_input_stdio_open(&input, configurationPath, "r")
        guard status >= 0, let input else {
            snd_config_delete(tree)
            throw failure("opening \(configurationPath)", status)
        }
        defer { snd_input_close(input) }
        status = snd_config_load(tree, input)
        guard status >= 0 else {
            snd_config_delete(tree)
            throw failure("parsing \(configurationPath)", status)
        }
        return tree
    }

    /// The number of frames a `file` plugin behind this device can deliver,
    /// or `nil` for devices that are not fed by an infile.
    ///
    /// Follows `slave.pcm` links from `pcm.<deviceName>` to a `type file` PCM
    /// with an `infile`, taking the sample format, channel count and rate from
    /// the nearest `slave` block on the way (or from the capture parameters).
    func infileFrameCount(in tree: OpaquePointer, capture: ALSAStreamParameters) -> Int64? {
        var node: OpaquePointer?
        guard snd_config_search(tree, "pcm.\(deviceName)", &node) >= 0, var current = node else { return nil }
        var bytesPerSample = capture.bytesPerSample
        var channels = capture.channels
        var rate = capture.rate
        for _ in 0..<8 {
            if string(current, "type") == "file" {
                // Only a regular file has a length; a FIFO or device infile is a
                // live stream that ends when its writer goes away.
                guard let infile = string(current, "infile"),
                      let attributes = try? FileManager.default.attributesOfItem(atPath: infile),
                      attributes[.type] as? FileAttributeType == .typeRegular,
                      let size = (attributes[.size] as? NSNumber)?.int64Value else { return nil }
                let fileFrames = size / Int64(bytesPerSample * channels)
                return Int64((Double(fileFrames) * Double(capture.rate) / Double(rate)).rounded(.down))
            }
            if let format = string(current, "slave.format"), let bytes = ALSAStreamParameters.bytesPerSample(named: format) {
                bytesPerSample = bytes
            }
            if let value = integer(current, "slave.channels") { channels = Int(value) }
            if let value = integer(current, "slave.rate") { rate = Int(value) }
            var slave: OpaquePointer?
            if let name = string(current, "slave.pcm") {
                guard snd_config_search(tree, "pcm.\(name)", &slave) >= 0, let found = slave else { return nil }
                current = found
            } else if snd_config_search(current, "slave.pcm", &slave) >= 0, let found = slave {
                current = found
            } else {
                return nil
            }
        }
        return nil
    }

    private func string(_ node: OpaquePointer, _ key: String) -> String? {
        var child: OpaquePointer?
        guard snd_config_search(node, key, &child) >= 0, let child else { return nil }
        var value: UnsafePointer<CChar>?
        guard snd_config_get_string(child, &value) >= 0, let value else { return nil }
        return String(cString: value)
    }

    private func integer(_ node: OpaquePointer, _ key: String) -> Int? {
        var child: OpaquePointer?
        guard snd_config_search(node, key, &child) >= 0, let child else { return nil }
        var value = 0
        guard snd_config_get_integer(child, &value) >= 0 else { return nil }
        return value
    }

    /// Whether the configuration defines the PCM (`pcm.<name>`, ignoring
    /// `:arguments`), checked before opening so a typo gets a clear error.
    func isDefined(in tree: OpaquePointer) -> Bool {
        let base = deviceName.split(separator: ":", maxSplits: 1).first.map(String.init) ?? deviceName
        var node: OpaquePointer?
        return snd_config_search(tree, "pcm.\(base)", &node) >= 0
    }

    /// The error for a PCM name the configuration does not define.
    func undefinedDeviceError() -> NSError {
        AudioError.make(kAudioHardwareBadDeviceError,
                        "No ALSA capture device named '\(deviceName)' is defined. "
                        + "Set \(ALSAConfiguration.deviceVariable) to a capture PCM listed by `arecord -L`, "
                        + "or \(ALSAConfiguration.configurationVariable) to a configuration file that defines it.")
    }

    /// A capture error naming the device and ALSA's reason.
    func failure(_ action: String, _ status: Int32) -> NSError {
        AudioError.make(kAudioHardwareBadDeviceError,
                        "ALSA capture device '\(deviceName)' failed while \(action): \(String(cString: snd_strerror(status))). "
                        + "Set \(ALSAConfiguration.deviceVariable) to a working capture PCM (see `arecord -L`), "
                        + "or \(ALSAConfiguration.configurationVariable) to a configuration file that defines it.")
    }
}
