// AVAudioConverter's two conversion calls: the simple buffer-to-buffer form
// and the streaming input-block form with Apple's status semantics.

extension AVAudioConverter {
    /// `convert(to:from:)`: one buffer into another at the same sample rate.
    func convertBuffer(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard !changesRate else {
            throw AudioError.make(kAudioConverterErr_FormatNotSupported,
                                  "convert(to:from:) does not change sample rate (\(inputFormat.sampleRate) Hz → "
                                  + "\(outputFormat.sampleRate) Hz). Use convert(to:error:withInputFrom:).")
        }
        try checkInput(inputBuffer)
        try checkOutput(outputBuffer)
        guard outputBuffer.frameCapacity >= inputBuffer.frameLength else {
            throw AudioError.make(kAudio_ParamError,
                                  "The output buffer holds \(outputBuffer.frameCapacity) frames but the input has "
                                  + "\(inputBuffer.frameLength). Allocate at least as many frames.")
        }
        var staging = InterleavedSampleQueue(channels: Int(outputFormat.channelCount))
        staging.append(mappedInterleaved(inputBuffer))
        let frames = staging.dequeue(into: outputBuffer, startFrame: 0, maxFrames: Int(inputBuffer.frameLength))
        outputBuffer.frameLength = AVAudioFrameCount(frames)
        outputBuffer.captureOrigin = inputBuffer.captureOrigin
    }

    /// `convert(to:error:withInputFrom:)`: a stream pulled from `inputBlock`.
    func convertStream(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer,
                       withInputFrom inputBlock: AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
        do {
            guard let output = outputBuffer as? AVAudioPCMBuffer else {
                throw AudioError.make(kAudio_ParamError, "AVAudioConverter on Linux converts only into AVAudioPCMBuffer.")
            }
            try checkOutput(output)
            let capacity = Int(output.frameCapacity)
            var written = 0
            output.frameLength = 0
            while true {
                let moved = queue.dequeue(into: output, startFrame: written,
                                          maxFrames: min(capacity - written, deliveryAllowance))
                written += moved
                outputFramesDeliveredTotal += Int64(moved)
                output.frameLength = AVAudioFrameCount(written)
                if written == capacity { return .haveData }
                if inputEnded { return written > 0 ? .haveData : .endOfStream }
                var status = AVAudioConverterInputStatus.haveData
                let supplied = inputBlock(packetsNeeded(forOutputFrames: capacity - written), &status)
                switch status {
                case .noDataNow:
                    return .inputRanDry
                case .endOfStream:
                    if let last = supplied as? AVAudioPCMBuffer, last.frameLength > 0 {
                        try ingest(last)
                        if let origin = last.captureOrigin { output.captureOrigin = origin }
                    }
                    try finishStream()
                case .haveData:
                    guard let input = supplied as? AVAudioPCMBuffer else {
                        throw AudioError.make(kAudio_ParamError,
                                              "The input block reported .haveData but returned no AVAudioPCMBuffer.")
                    }
                    guard input.frameLength > 0 else { return .inputRanDry }
                    try ingest(input)
                    // Converted capture keeps its origin (see CaptureOrigin).
                    if let origin = input.captureOrigin { output.captureOrigin = origin }
                }
            }
        } catch let error as NSError {
            outError?.pointee = error
            return .error
        }
    }

    /// How many more frames may be handed out now: in latency mode
    /// (`primeMethod == .none`) never more than round(input × ratio) in
    /// total, so that frame counts keep time with the input.
    private var deliveryAllowance: Int {
        guard primeMethod == .none, changesRate, !inputEnded else { return .max }
        return Int(max(0, expectedOutputTotal - outputFramesDeliveredTotal))
    }

    /// Input frames likely needed to produce `outputFrames` frames.
    private func packetsNeeded(forOutputFrames outputFrames: Int) -> AVAudioPacketCount {
        let ratio = inputFormat.sampleRate / outputFormat.sampleRate
        return AVAudioPacketCount(max(1, (Double(outputFrames) * ratio).rounded(.up)))
    }

    /// The exact output total for the input so far: round(input × ratio).
    private var expectedOutputTotal: Int64 {
        Int64((Double(inputFramesTotal) * outputFormat.sampleRate / inputFormat.sampleRate).rounded())
    }

    /// Maps, resamples and queues one input buffer.
    private func ingest(_ input: AVAudioPCMBuffer) throws {
        try checkInput(input)
        let interleaved = mappedInterleaved(input)
        let frames = Int(input.frameLength)
        inputFramesTotal += Int64(frames)
        streamStarted = true
        guard changesRate else {
            queue.append(interleaved)
            outputFramesQueuedTotal += Int64(frames)
            return
        }
        let converter = try currentResampler()
        if primeMethod == .none && outputFramesQueuedTotal == 0 {
            // Latency mode: the leading frames are silence, as many as the
            // resampler can ever hold back, so every call can deliver
            // exactly round(input × ratio) frames in total.
            let leading = converter.maximumHoldBack()
            queue.appendSilence(frames: leading)
            outputFramesQueuedTotal += Int64(leading)
        }
        var produced: [Float] = []
        interleaved.withUnsafeBufferPointer { pointer in
            converter.process(pointer.baseAddress!, frameCount: frames, appendingTo: &produced)
        }
        queue.append(produced)
        outputFramesQueuedTotal += Int64(produced.count / Int(outputFormat.channelCount))
    }

    /// Flushes the resampler and makes the output total exactly
    /// round(input × ratio), trimming or padding the tail.
    private func finishStream() throws {
        inputEnded = true
        if changesRate, let resampler {
            var tail: [Float] = []
            resampler.flush(appendingTo: &tail)
            queue.append(tail)
            outputFramesQueuedTotal += Int64(tail.count / Int(outputFormat.channelCount))
        }
        let surplus = outputFramesQueuedTotal - expectedOutputTotal
        if surplus > 0 {
            queue.dropLast(frames: Int(surplus))
        } else if surplus < 0 {
            queue.appendSilence(frames: Int(-surplus))
        }
        outputFramesQueuedTotal = expectedOutputTotal
    }

    /// The resampler, created on first use with the current quality.
    private func currentResampler() throws -> SoxrResampler {
        if let resampler { return resampler }
        guard let created = SoxrResampler(inputRate: inputFormat.sampleRate, outputRate: outputFormat.sampleRate,
                                          channels: Int(outputFormat.channelCount),
                                          quality: SoxrResampler.recipe(forQuality: sampleRateConverterQuality)) else {
            throw AudioError.make(kAudioConverterErr_FormatNotSupported,
                                  "libsoxr cannot convert \(inputFormat.sampleRate) Hz to \(outputFormat.sampleRate) Hz.")
        }
        resampler = created
        return created
    }

    private func checkInput(_ buffer: AVAudioPCMBuffer) throws {
        guard buffer.format == inputFormat else {
            throw AudioError.make(kAudioConverterErr_FormatNotSupported,
                                  "The input buffer's format \(buffer.format) is not the converter's input format "
                                  + "\(inputFormat).")
        }
    }

    private func checkOutput(_ buffer: AVAudioPCMBuffer) throws {
        guard buffer.format == outputFormat else {
            throw AudioError.make(kAudio_ParamError,
                                  "The output buffer's format \(buffer.format) is not the converter's output format "
                                  + "\(outputFormat).")
        }
    }
}
