import Foundation
import SpeechEngine

/// `POST /v1/audio/transcriptions`'s form, checked: OpenAI's fields
/// (`file`, `model`, `language`, `prompt`, `response_format`, `temperature`,
/// `timestamp_granularities[]`) plus `stream`.
struct TranscriptionRequest: Sendable {
    /// The formats OpenAI's endpoint answers in.
    enum ResponseFormat: String, Sendable, CaseIterable {
        case json, text, srt, vtt
        case verboseJSON = "verbose_json"
    }

    var fileURL: URL
    var fileName: String
    var format: ResponseFormat
    /// ISO 639-1 code, or nil to detect.
    var language: String?
    var prompt: String?
    /// nil or 0: the engine's temperature fallback; above 0: that temperature only.
    var temperature: Double?
    var wantsWords: Bool
    var wantsSegments: Bool
    /// Answer with server-sent events (`volatile`, `final`, `done`) as decoding proceeds.
    var stream: Bool

    /// Model names a client may send: OpenAI's `whisper-1` and the loaded model's name.
    static func acceptedModels(loaded: String) -> [String] { ["whisper-1", loaded] }

    /// Reads and checks the form.
    /// - Throws: `ServiceError(.invalidRequest)` naming the field at fault.
    init(form: UploadedForm, loadedModel: String, englishOnly: Bool) throws(ServiceError) {
        guard let fileURL = form.fileURL else {
            throw ServiceError(.invalidRequest, code: "missing_file",
                               "The form has no 'file' part; send the audio as -F file=@audio.wav.", parameter: "file")
        }
        self.fileURL = fileURL
        fileName = form.fileName ?? "upload"

        let formatName = form.value("response_format") ?? "json"
        guard let format = ResponseFormat(rawValue: formatName) else {
            throw ServiceError(.invalidRequest, code: "invalid_response_format",
                               "Unknown response_format '\(formatName)'; use one of "
                               + ResponseFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".",
                               parameter: "response_format")
        }
        self.format = format

        if let model = form.value("model"), !model.isEmpty,
           !Self.acceptedModels(loaded: loadedModel).contains(model) {
            throw ServiceError(.invalidRequest, code: "model_not_found",
                               "This service serves '\(loadedModel)' (also accepted as 'whisper-1'), not '\(model)'.",
                               parameter: "model")
        }

        language = try Self.language(form.value("language"), englishOnly: englishOnly, model: loadedModel)
        prompt = form.value("prompt").flatMap { $0.isEmpty ? nil : $0 }

        if let text = form.value("temperature"), !text.isEmpty {
            guard let value = Double(text), value >= 0, value <= 1 else {
                throw ServiceError(.invalidRequest, code: "invalid_temperature",
                                   "temperature must be a number from 0 to 1, not '\(text)'.", parameter: "temperature")
            }
            temperature = value
        }

        let granularities = form.values("timestamp_granularities[]") + form.values("timestamp_granularities")
        for granularity in granularities where granularity != "word" && granularity != "segment" {
            throw ServiceError(.invalidRequest, code: "invalid_timestamp_granularity",
                               "Unknown timestamp_granularities[] value '\(granularity)'; use word or segment.",
                               parameter: "timestamp_granularities[]")
        }
        if !granularities.isEmpty, format != .verboseJSON {
            throw ServiceError(.invalidRequest, code: "invalid_timestamp_granularity",
                               "timestamp_granularities[] needs response_format=verbose_json.",
                               parameter: "timestamp_granularities[]")
        }
        wantsWords = granularities.contains("word")
        wantsSegments = granularities.isEmpty || granularities.contains("segment")

        switch form.value("stream") ?? "false" {
        case "true", "1": stream = true
        case "false", "0", "": stream = false
        case let other:
            throw ServiceError(.invalidRequest, code: "invalid_stream",
                               "stream must be true or false, not '\(other)'.", parameter: "stream")
        }
    }

    /// The language field as an ISO code (a code or Whisper's English name).
    static func language(_ text: String?, englishOnly: Bool, model: String) throws(ServiceError) -> String? {
        guard let text, !text.isEmpty else { return englishOnly ? "en" : nil }
        let lowered = text.lowercased()
        guard let code = WhisperLanguages.codes.contains(lowered) ? lowered : WhisperLanguages.code(forName: lowered) else {
            throw ServiceError(.invalidRequest, code: "unsupported_language",
                               "Unknown language '\(text)'; send an ISO 639-1 code such as en, sv or de.",
                               parameter: "language")
        }
        if englishOnly, code != "en" {
            throw ServiceError(.invalidRequest, code: "unsupported_language",
                               "The model '\(model)' knows only English, not '\(text)'.", parameter: "language")
        }
        return code
    }

    /// Engine options for this request.
    var options: TranscriptionOptions {
        var options = TranscriptionOptions()
        options.language = language
        options.initialPrompt = prompt
        if let temperature, temperature > 0 { options.temperatures = [temperature] }
        // Subtitles and verbose_json's words need word timing; the rest do not.
        options.wordTimestamps = wantsWords
        return options
    }
}
