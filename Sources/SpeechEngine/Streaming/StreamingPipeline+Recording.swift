import Foundation

/// Recordings in a live stream (audio that is all there, decoded the way a
/// file is, between the live audio before and after it), and the check for
/// speech a commit's decoding skipped.
extension StreamingPipeline {
    /// Decodes `samples` — audio that is all there, such as a file — as
    /// `Transcriber` decodes a file (the options' own padding, beam and
    /// fallback), after committing what is pending. Each decoded window
    /// comes out as a `.final` at once — announced by a `.volatile` of the
    /// same text when volatile results are on, so clients that show volatile
    /// text see the file's progress the way live audio shows it; stream
    /// time advances by the recording's length.
    mutating func appendRecording(_ samples: [Float]) throws {
        try flushUnblocked()
        detectorEvents(detector.finish())
        try commitPending()
        let start = totalSamples
        let offset = seconds(start)
        for region in SpeechActivityDetector.speechRegions(in: samples) {
            emit(.speechDetected(atSeconds: offset + seconds(region.lowerBound)))
            emit(.speechEnded(atSeconds: offset + seconds(region.upperBound)))
        }
        var rangeStart = max(committedEndSeconds, offset)
        var tail = committedTail
        let emit = self.emit
        let reportsVolatile = options.reportsVolatileResults
        let transcript = try accurate(samples, conditioned(options.transcription), nil) { window in
            let through = offset + window.throughSeconds
            if let hypothesis = Self.hypothesis(of: window.segments, offset: offset, from: rangeStart, to: through,
                                                alternatives: window.alternatives) {
                if reportsVolatile { emit(.volatile(hypothesis)) }
                emit(.final(hypothesis))
                tail = Self.appending(hypothesis.text, to: tail)
            }
            emit(.committed(throughSeconds: through))
            emit(.progress(processedSeconds: through))
            rangeStart = through
        }
        _ = transcript
        committedTail = tail
        committedEndSeconds = seconds(totalSamples + samples.count)
        hasCommitted = true
        skipUnheard(samples.count)
        emit(.progress(processedSeconds: seconds(totalSamples)))
    }

    /// The sample where the detector hears speech well after `coveredSeconds`
    /// (the end of the decoded text), if any.
    func skippedSpeechStart(after coveredSeconds: Double) -> Int? {
        let margin = Int((coveredSeconds + 0.5) * Self.sampleRate)
        guard margin < buffer.count else { return nil }
        let regions = SpeechActivityDetector.speechRegions(in: buffer)
        guard regions.contains(where: { $0.lowerBound >= margin && $0.count >= Int(0.3 * Self.sampleRate) }) else {
            return nil
        }
        return min(buffer.count, Int(coveredSeconds * Self.sampleRate))
    }
}
