import Foundation

extension MigrationSuite {
    /// The suite folder, or the working directory for a suite without one.
    var folderURL: URL { folder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath) }

    /// Where case `index`'s audio is, with links and `..` resolved, checked
    /// to lie inside the suite folder (or, for `corpus:PATH`, inside the
    /// corpus root) unless ``allowsPathsOutsideSuite``.
    /// - Throws: `MigrationError` (`.pathOutsideSuite`, key `cases[i].audio`).
    public func checkedAudioURL(for item: SuiteCase, at index: Int) throws -> URL {
        guard !allowsPathsOutsideSuite else { return item.audioURL(suiteFolder: folderURL) }
        let key = "cases[\(index)].audio"
        let root: String, rootName: String, raw: String
        if item.audio.hasPrefix("corpus:") {
            root = SuiteCase.corpusRoot(near: folderURL).path
            rootName = "the corpus root \(root) (set by SPEECHCOMPAT_CORPUS or found beside the suite)"
            raw = root + "/" + item.audio.dropFirst("corpus:".count)
        } else {
            root = folderURL.path
            rootName = "the suite folder \(root)"
            raw = item.audio.hasPrefix("/") ? item.audio : root + "/" + item.audio
        }
        let resolved = try resolve(raw, key: key, value: item.audio)
        guard SuitePaths.isInside(resolved, folder: try resolve(root, key: key, value: item.audio)) else {
            throw MigrationError(.pathOutsideSuite, "Suite \(name), key \(key): the audio \"\(item.audio)\" resolves to "
                                 + "\(resolved), outside \(rootName). Keep audio inside the suite folder (or the "
                                 + "corpus, with corpus:PATH), or pass --allow-outside-suite if you trust this suite.",
                                 key: key, value: item.audio)
        }
        return URL(fileURLWithPath: resolved)
    }

    /// Where case `index`'s golden for `path` is, with links and `..`
    /// resolved, checked to lie inside the suite's `goldens/` folder unless
    /// ``allowsPathsOutsideSuite``: the case id names the file, so an id
    /// such as `../../x` must not reach anywhere else.
    /// - Throws: `MigrationError` (`.pathOutsideSuite`, key `cases[i].id`).
    public func checkedGoldenURL(for item: SuiteCase, at index: Int, path: RecognitionPath) throws -> URL {
        let lexical = goldenURL(caseID: item.id, path: path)
        guard !allowsPathsOutsideSuite else { return lexical }
        let key = "cases[\(index)].id"
        let relative = "goldens/\(item.id).\(path.rawValue).json"
        let resolved = try resolve(folderURL.path + "/" + relative, key: key, value: item.id)
        let goldens = try resolve(folderURL.path, key: key, value: item.id) + "/goldens"
        guard SuitePaths.isInside(resolved, folder: goldens), resolved != goldens else {
            throw MigrationError(.pathOutsideSuite, "Suite \(name), key \(key): the case id \"\(item.id)\" names the "
                                 + "golden \(relative), which resolves to \(resolved), outside \(goldens). Use an id "
                                 + "without '..' (and keep goldens/ a real folder of the suite), or pass "
                                 + "--allow-outside-suite if you trust this suite.", key: key, value: item.id)
        }
        return URL(fileURLWithPath: resolved)
    }

    /// Every golden path of the suite's golden cases, checked; the runner
    /// checks them all before recording one, so a bad id writes nothing.
    func checkedGoldenURLs() throws -> [(item: SuiteCase, path: RecognitionPath, url: URL)] {
        var urls: [(SuiteCase, RecognitionPath, URL)] = []
        for (index, item) in cases.enumerated() where item.golden == true {
            for path in effectivePaths { urls.append((item, path, try checkedGoldenURL(for: item, at: index, path: path))) }
        }
        return urls
    }

    private func resolve(_ path: String, key: String, value: String) throws -> String {
        do {
            return try SuitePaths.resolve(path)
        } catch let error as MigrationError {
            throw MigrationError(error.code, "Suite \(name), key \(key): \(error.message)", key: key, value: value)
        }
    }
}
