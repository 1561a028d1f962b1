import AVFoundation
import CoreMedia
import Foundation

/// A module that performs one kind of analysis on the audio an analyzer
/// receives, and publishes its results through `results`.
///
/// Add modules to a `SpeechAnalyzer`; each module instance belongs to one
/// analyzer, once. `SpeechTranscriber`, `DictationTranscriber` and
/// `SpeechDetector` are the modules of the framework.
///
/// ```swift
/// let transcriber = SpeechTranscriber(locale: locale, preset: .progressiveTranscription)
/// let analyzer = SpeechAnalyzer(modules: [transcriber])
/// Task {
///     for try await result in transcriber.results {
///         print(result.isFinal ? "final:" : "volatile:", String(result.text.characters))
///     }
/// }
/// ```
/// - Note: On Linux, as on Apple platforms, apps cannot write working modules
///   of their own: the analyzer only drives the framework's modules, and an
///   analyzer given any other module fails with `moduleOutputFailed`.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public protocol SpeechModule: AnyObject, Sendable {
    /// The type of the module's result sequence.
    associatedtype Results: Sendable, AsyncSequence where Self.Results.Failure == any Error
    /// The type of one result.
    associatedtype Result: SpeechModuleResult, Sendable where Self.Result == Self.Results.Element

    /// The module's results, in order. The sequence ends when the analyzer
    /// finishes and throws the analyzer's error when analysis fails. Reading
    /// the property repeatedly returns the same sequence.
    var results: Self.Results { get }

    /// The audio formats the module can analyze, best first.
    ///
    /// A single format with sample rate `kAudioStreamAnyRate` and other fields
    /// 0 means any format; an empty list means the module's assets are not
    /// installed. May be read before the module is added to an analyzer.
    /// - Note: On Linux the transcribers list 16 kHz mono Int16 and Float32
    ///   once the Whisper model for their locale is installed.
    var availableCompatibleAudioFormats: [AVAudioFormat] { get async }
}
