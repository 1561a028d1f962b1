// One installed tap: it gathers captured frames into buffers of the requested
// size, converts them to the tap's format, stamps them with an AVAudioTime and
// hands them to the block on the delivery queue.

import Dispatch

/// A tap installed on a node bus.
/// - Note: Used only from the capture thread once installed, except for
///   removal, which the registry's lock guards.
final class NodeTap: @unchecked Sendable {
    /// The bus the tap watches.
    let bus: AVAudioNodeBus
    /// Frames per delivered buffer.
    let bufferFrames: Int
    /// The format buffers are delivered in.
    let format: AVAudioFormat
    private let block: AVAudioNodeTapBlock
    private var converter: AVAudioConverter?
    private var converterSource: AVAudioFormat?
    private var pending: [Float] = []
    private var pendingStartSampleTime: AVAudioFramePosition = 0

    /// Creates a tap; `block` is called on the engine's delivery queue.
    init(bus: AVAudioNodeBus, bufferFrames: Int, format: AVAudioFormat, block: @escaping AVAudioNodeTapBlock) {
        self.bus = bus
        self.bufferFrames = max(1, bufferFrames)
        self.format = format
        self.block = block
    }

    /// Adds interleaved frames captured in `source`'s format starting at
    /// `sampleTime`, delivering every full buffer.
    func append(_ interleaved: [Float], source: AVAudioFormat, sampleTime: AVAudioFramePosition,
                hostStart: UInt64, origin: CaptureOrigin, queue: DispatchQueue) {
        if pending.isEmpty { pendingStartSampleTime = sampleTime }
        pending.append(contentsOf: interleaved)
        let channels = Int(source.channelCount)
        while pending.count >= bufferFrames * channels {
            deliver(frames: bufferFrames, source: source, hostStart: hostStart, origin: origin, queue: queue)
        }
    }

    /// Delivers whatever is pending as a final, shorter buffer.
    func flush(source: AVAudioFormat, hostStart: UInt64, origin: CaptureOrigin, queue: DispatchQueue) {
        let frames = pending.count / Int(source.channelCount)
        if frames > 0 { deliver(frames: frames, source: source, hostStart: hostStart, origin: origin, queue: queue) }
    }

    /// Drops pending frames (engine reset or stop).
    func discardPending() { pending.removeAll() }

    private func deliver(frames: Int, source: AVAudioFormat, hostStart: UInt64, origin: CaptureOrigin,
                         queue: DispatchQueue) {
        let channels = Int(source.channelCount)
        guard let captured = AVAudioPCMBuffer(pcmFormat: source, frameCapacity: AVAudioFrameCount(frames)) else { return }
        var queueOfOne = InterleavedSampleQueue(channels: channels)
        queueOfOne.append(Array(pending[0..<(frames * channels)]))
        _ = queueOfOne.dequeue(into: captured, startFrame: 0, maxFrames: frames)
        captured.frameLength = AVAudioFrameCount(frames)
        pending.removeFirst(frames * channels)
        let delivered = converted(captured, from: source)
        delivered.captureOrigin = origin
        let sampleTime = pendingStartSampleTime
        pendingStartSampleTime += AVAudioFramePosition(frames)
        let hostTime = hostStart + UInt64((Double(sampleTime) / source.sampleRate * 1e9).rounded())
        let time = AVAudioTime(hostTime: hostTime, sampleTime: sampleTime, atRate: source.sampleRate)
        let block = self.block
        let package = TapDelivery(block: block, buffer: delivered, time: time)
        queue.async { package.run() }
    }

    /// The buffer in the tap's format (same rate; sample type and channels may differ).
    private func converted(_ buffer: AVAudioPCMBuffer, from source: AVAudioFormat) -> AVAudioPCMBuffer {
        guard format != source else { return buffer }
        if converterSource != source {
            converter = AVAudioConverter(from: source, to: format)
            converterSource = source
        }
        guard let converter, let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength),
              (try? converter.convert(to: output, from: buffer)) != nil else { return buffer }
        return output
    }
}

/// A tap call packaged to cross onto the delivery queue.
/// - Note: The block is not `@Sendable` (as on Apple platforms); it is only
///   ever run on the serial delivery queue.
private struct TapDelivery: @unchecked Sendable {
    let block: AVAudioNodeTapBlock
    let buffer: AVAudioPCMBuffer
    let time: AVAudioTime
    func run() { block(buffer, time) }
}
