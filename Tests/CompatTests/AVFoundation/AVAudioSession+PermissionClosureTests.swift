@testable import AVFoundation
import Foundation
import Testing

extension AVAudioSessionTests {
    /// App state captured by a permission callback; not Sendable, as such state often is.
    private final class Answer {
        var granted: Bool?
    }

    /// `requestRecordPermission(_:)` takes a non-`@Sendable` closure, as in
    /// Apple's SDK, and still answers on a background queue.
    @Test func recordPermissionTakesANonSendableClosure() async {
        RecordPermissionStore.shared.resetForTesting(probe: { true })
        defer { RecordPermissionStore.shared.resetForTesting() }
        let answer = Answer()
        let onMain: Bool = await withCheckedContinuation { continuation in
            AVAudioSession.sharedInstance().requestRecordPermission { granted in
                answer.granted = granted
                continuation.resume(returning: Thread.isMainThread)
            }
        }
        #expect(answer.granted == true && !onMain)
    }
}
