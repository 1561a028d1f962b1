import AVFoundation
import Foundation
import Speech

extension RollingRecognizer {
    private var limitSampleCount: Int { Int(stretchSeconds * 16_000) }
    private var lookbackSampleCount: Int { Int(lookbackSeconds * 16_000) }

    /// Sends held audio to the current stretch, keeping the lookback window
    /// back, and cuts to a new stretch at a quiet point when the limit is
    /// reached. Called with `lock` held.
    func roll() {
        while sentInStretch + held.count >= limitSampleCount {
            let room = limitSampleCount - sentInStretch
            let cut = QuietPoint.cutIndex(in: held, window: (room - lookbackSampleCount)..<room)
            send(cut)
            request?.endAudio()
            request = nil
            stretchStart += sentInStretch
            sentInStretch = 0
        }
        if held.count > lookbackSampleCount { send(held.count - lookbackSampleCount) }
    }

    /// Appends the first `count` held samples to the current stretch's
    /// request, starting a stretch if none runs. Called with `lock` held.
    func send(_ count: Int) {
        guard count > 0 else { return }
        if request == nil { startStretch() }
        if let buffer = MonoAudioConverter.buffer(held[..<count]) { request?.append(buffer) }
        held.removeFirst(count)
        sentInStretch += count
    }

    /// Starts the next legacy task. Called with `lock` held.
    private func startStretch() {
        let request = SFSpeechAudioBufferRecognitionRequest()
        configure(request)
        self.request = request
        let index = started
        started += 1
        let offset = Double(stretchStart) / 16_000
        recognizer.recognitionTask(with: request) { [self] result, error in
            if let result {
                if result.isFinal {
                    complete(index, offset: offset, result: result, error: nil)
                } else {
                    report(index, partial: result.bestTranscription.formattedString)
                }
            } else if let error {
                complete(index, offset: offset, result: nil, error: error)
            }
        }
    }

    private func report(_ index: Int, partial: String) {
        let text: String = lock.withLock {
            partials[index] = partial
            return runningText()
        }
        onPartial?(text)
    }

    /// Finished stretches, then the partial text of running ones. Called with `lock` held.
    private func runningText() -> String {
        (0..<started).compactMap { stretches[$0]?.text ?? partials[$0] }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private func complete(_ index: Int, offset: Double, result: SFSpeechRecognitionResult?, error: (any Error)?) {
        let finished: Bool = lock.withLock {
            let noSpeech = (error as NSError?).map { $0.domain == "kAFAssistantErrorDomain" && $0.code == 1110 } ?? false
            if let error, !noSpeech, failure == nil { failure = error }
            let words = result?.bestTranscription.segments.map {
                TimedWord(text: $0.substring, startSeconds: offset + $0.timestamp, durationSeconds: $0.duration,
                          confidence: Double($0.confidence))
            } ?? []
            let end = words.last?.endSeconds ?? offset
            stretches[index] = .init(offsetSeconds: offset, durationSeconds: max(0, end - offset),
                                     text: result?.bestTranscription.formattedString ?? "", words: words)
            completed += 1
            return ended && started == completed
        }
        if finished { resumeWaiters() }
    }

    /// Hands the transcript (or the failure) to everyone waiting.
    func resumeWaiters() {
        let (waiting, transcript, failure) = lock.withLock {
            defer { waiters = [] }
            let transcript = RollingTranscript(stretches: (0..<started).compactMap { stretches[$0] })
            return (waiters, transcript, self.failure)
        }
        for waiter in waiting {
            if let failure { waiter.resume(throwing: failure) } else { waiter.resume(returning: transcript) }
        }
    }

    /// The samples of a 16 kHz mono Float32 buffer.
    static func samples(of buffer: AVAudioPCMBuffer) -> [Float] {
        guard let channel = buffer.floatChannelData?[0] else { return [] }
        return Array(UnsafeBufferPointer(start: channel, count: Int(buffer.frameLength)))
    }
}
