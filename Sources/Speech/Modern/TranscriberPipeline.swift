import Foundation

/// Which recognition pipeline a transcriber module runs on.
///
/// By default the analyzer's (the engine). SpeechMigration's
/// `useLegacyPipeline` sets another one — a legacy `SFSpeechRecognitionTask`
/// underneath — before analysis starts, so modern code keeps its analyzer,
/// modules and result sequences while the legacy pipeline recognizes. The
/// choice is read when the transcriber's backend starts (its first audio).
package final class TranscriberPipeline: Sendable {
    private let chosen = LockedState<RecognitionSessionFactory?>(nil)

    init() {}

    /// Runs the transcriber's recognition through `factory`'s backends.
    package func use(_ factory: RecognitionSessionFactory) {
        chosen.withLock { $0 = factory }
    }

    /// The pipeline chosen for the transcriber, or nil for the analyzer's.
    var factory: RecognitionSessionFactory? {
        chosen.withLock { $0 }
    }
}
