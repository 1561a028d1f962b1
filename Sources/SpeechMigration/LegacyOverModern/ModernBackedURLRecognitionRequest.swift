import AVFoundation
import Foundation
import Speech

/// A file request for `ModernBackedSpeechRecognizer`, the counterpart of
/// `SFSpeechURLRecognitionRequest`: the analyzer reads the file through
/// `analyzeSequence(from:)` and converts it to the transcriber's format.
public final class ModernBackedURLRecognitionRequest: ModernBackedRecognitionRequest, @unchecked Sendable {
    /// The audio file.
    public let url: URL

    /// Creates a request for the audio file at `url`.
    public init(url: URL) {
        self.url = url
        super.init()
    }

    /// Creates a request for the same file and settings as a legacy one.
    public convenience init(_ request: SFSpeechURLRecognitionRequest) {
        self.init(url: request.url)
        copySettings(from: request)
    }

    override func analyze(with analyzer: SpeechAnalyzer) async throws -> CMTime? {
        let file: AVAudioFile
        do {
            file = try AVAudioFile(forReading: url)
        } catch {
            throw SFSpeechError(.audioReadFailed, userInfo: [
                NSLocalizedDescriptionKey: "The audio file \(url.path) cannot be read.", NSUnderlyingErrorKey: error])
        }
        return try await analyzer.analyzeSequence(from: file)
    }
}
