import Foundation

extension MigrationSuite {
    /// The range of every WER bound (`maximumWordErrorRate`,
    /// `crossPathMaximumWordErrorRate`): 0 asks for the same words, 1 lets
    /// every word differ. Larger values would let any transcript pass.
    public static let wordErrorRateBoundRange: ClosedRange<Double> = 0...1
    /// The range of `timingToleranceSeconds`.
    public static let timingToleranceRange: ClosedRange<Double> = 0...10

    /// The keys a case may hold.
    static let caseKeys = ["id", "audio", "reference", "maximumWordErrorRate", "golden", "timingToleranceSeconds",
                           "crossPathMaximumWordErrorRate"]

    /// How to fix each key's value, for error messages.
    static let keyHints: [String: String] = [
        "name": "Give the suite's name as a string, e.g. \"name\": \"corpus-smoke\".",
        "locale": "Give a BCP-47 locale as a string, e.g. \"locale\": \"en-US\".",
        "addsPunctuation": "Give true or false.",
        "paths": "Give a list of paths, baseline first, from: "
            + RecognitionPath.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        "crossPathMaximumWordErrorRate": "Give the largest WER allowed between paths, a number from 0 to 1, e.g. 0.15.",
        "cases": "Give a list of cases, each an object with \"id\" and \"audio\".",
        "id": "Give each case a unique name as a string, e.g. \"id\": \"goforward\".",
        "audio": "Give the audio file as a string: relative to the suite folder, or corpus:PATH.",
        "reference": "Give the reference transcript as a string.",
        "maximumWordErrorRate": "Give the largest WER allowed against the reference, a number from 0 to 1, e.g. 0.2.",
        "golden": "Give true to check the case against goldens/<id>.<path>.json.",
        "timingToleranceSeconds": "Give the word-time tolerance in seconds, a number from 0 to 10, e.g. 0.05.",
    ]

    /// What to do about a manifest problem no key hint covers.
    static let manifestFix = "See MigrationGuide/05-AdaptersAndSuites.md for the suite.json format."

    /// Checks a suite built in memory as loading checks a manifest.
    /// - Throws: the first problem, as `MigrationError`.
    public func validate() throws {
        guard !cases.isEmpty else { throw MigrationError(.invalidSuite, "The suite \(name) lists no cases.") }
        try checkSuiteBound(manifest: nil, data: nil)
        var seen = Set<String>()
        for (index, item) in cases.enumerated() {
            if let error = problem(with: item, at: index, manifest: nil, data: nil) { throw error }
            guard seen.insert(item.id).inserted else { throw duplicate(item.id, at: index, manifest: nil, data: nil) }
        }
    }

    /// The first problem with case `index`, or nil: its id, bounds,
    /// expectation and paths. The runner asks this before running a case,
    /// so an in-memory suite is held to the same rules as a manifest.
    func problem(with item: SuiteCase, at index: Int, manifest: URL?, data: Data?) -> MigrationError? {
        let prefix: [JSONLocator.Component] = [.key("cases"), .index(index)]
        func place(_ key: String) -> String { Self.place(prefix + [.key(key)], manifest: manifest, data: data) }
        do {
            try checkSuiteBound(manifest: manifest, data: data)
        } catch {
            return error as? MigrationError
        }
        if item.id.isEmpty || item.id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return MigrationError(.invalidSuite, "\(place("id")): the case id \"\(item.id)\" is empty or holds control "
                                  + "characters. \(Self.keyHints["id"]!)", key: "cases[\(index)].id", value: item.id)
        }
        let bounds: [(String, Double?, ClosedRange<Double>, String)] = [
            ("maximumWordErrorRate", item.maximumWordErrorRate, Self.wordErrorRateBoundRange, "a WER bound"),
            ("crossPathMaximumWordErrorRate", item.crossPathMaximumWordErrorRate, Self.wordErrorRateBoundRange,
             "a WER bound"),
            ("timingToleranceSeconds", item.timingToleranceSeconds, Self.timingToleranceRange, "a timing tolerance"),
        ]
        for (key, value, range, what) in bounds {
            if let error = Self.boundError(value, key: key, keyPath: "cases[\(index)].\(key)", place: place(key),
                                           range: range, what: what) {
                return error
            }
        }
        guard item.reference != nil || item.golden == true || effectivePaths.count > 1 else {
            return MigrationError(.invalidSuite, "\(place("id")): case '\(item.id)' has no expectation: give a "
                                  + "reference, golden: true, or two paths to compare.", key: "cases[\(index)]",
                                  value: item.id)
        }
        do {
            _ = try checkedAudioURL(for: item, at: index)
            if item.golden == true {
                for path in effectivePaths { _ = try checkedGoldenURL(for: item, at: index, path: path) }
            }
        } catch let error as MigrationError {
            return error
        } catch {
            return MigrationError(.invalidSuite, "\(place("audio")): \(error)", underlying: error)
        }
        return nil
    }

    /// Runs every check on a manifest just decoded from `data`.
    func validate(manifest: URL, data: Data) throws {
        guard !cases.isEmpty else {
            throw MigrationError(.invalidSuite, "\(manifest.path): lists no cases. Add at least one case to \"cases\".",
                                 key: "cases")
        }
        try checkSuiteBound(manifest: manifest, data: data)
        var seen = Set<String>()
        for (index, item) in cases.enumerated() {
            if let error = problem(with: item, at: index, manifest: manifest, data: data) { throw error }
            guard seen.insert(item.id).inserted else { throw duplicate(item.id, at: index, manifest: manifest, data: data) }
        }
    }

    private func checkSuiteBound(manifest: URL?, data: Data?) throws {
        let key = "crossPathMaximumWordErrorRate"
        if let error = Self.boundError(crossPathMaximumWordErrorRate, key: key, keyPath: key,
                                       place: Self.place([.key(key)], manifest: manifest, data: data),
                                       range: Self.wordErrorRateBoundRange, what: "a WER bound") {
            throw error
        }
    }

    private func duplicate(_ id: String, at index: Int, manifest: URL?, data: Data?) -> MigrationError {
        MigrationError(.invalidSuite, "\(Self.place([.key("cases"), .index(index), .key("id")], manifest: manifest, data: data)): "
                       + "the case id '\(id)' appears twice. Give each case a unique id.",
                       key: "cases[\(index)].id", value: id)
    }

    /// Refuses keys the manifest format does not have: a misspelt bound
    /// would otherwise be ignored and the default used without a word.
    /// Runs before decoding, so a misspelt required key is named as such.
    static func checkKeys(manifest: URL, data: Data) throws {
        guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        var unknown: [([JSONLocator.Component], String, [String])] = []
        for key in top.keys.sorted() where !Self.manifestKeys.contains(key) {
            unknown.append(([.key(key)], key, Self.manifestKeys))
        }
        for (index, item) in ((top["cases"] as? [Any]) ?? []).enumerated() {
            for key in ((item as? [String: Any])?.keys.sorted() ?? []) where !Self.caseKeys.contains(key) {
                unknown.append(([.key("cases"), .index(index), .key(key)], key, Self.caseKeys))
            }
        }
        guard let (path, key, known) = unknown.first else { return }
        let suggestion = known.min { Self.distance($0, key) < Self.distance($1, key) }
            .flatMap { Self.distance($0, key) <= 3 ? " Did you mean \"\($0)\"?" : nil } ?? ""
        throw MigrationError(.invalidSuite, "\(Self.place(path, manifest: manifest, data: data)): unknown key \"\(key)\"."
                             + "\(suggestion) Known keys here: \(known.joined(separator: ", ")).",
                             key: JSONLocator.keyPath(path), value: key)
    }

    /// `value` checked against `range`: a clear error when it is not a finite number in it.
    private static func boundError(_ value: Double?, key: String, keyPath: String, place: String,
                                   range: ClosedRange<Double>, what: String) -> MigrationError? {
        guard let value, !(value.isFinite && range.contains(value)) else { return nil }
        let hint = keyHints[key] ?? ""
        return MigrationError(.invalidSuite, "\(place): \(value) is out of range; \(what) must be a finite number "
                              + "from \(range.lowerBound.formatted0) to \(range.upperBound.formatted0). \(hint)",
                              key: keyPath, value: "\(value)")
    }

    /// "suite.json line 7, key cases[1].audio", or "key cases[1].audio" without a file.
    static func place(_ path: [JSONLocator.Component], manifest: URL?, data: Data?) -> String {
        let key = "key \(JSONLocator.keyPath(path))"
        guard let manifest else { return key }
        let line = data.flatMap { JSONLocator.location(of: path, in: $0)?.line }
        return "\(manifest.path)" + (line.map { " line \($0)," } ?? "") + " " + key
    }

    /// Edit distance between two short keys, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

private extension Double {
    /// "0", "1", "10": bounds without a trailing ".0".
    var formatted0: String { self == rounded() ? String(Int(self)) : "\(self)" }
}
