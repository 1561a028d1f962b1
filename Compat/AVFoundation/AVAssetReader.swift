// AVAssetReader: reads an asset's media as sample buffers through outputs
// (API.md issue 15: the AVAssetReader loop).

/// Reads media data from an asset: add outputs, `startReading()`, then pull
/// `copyNextSampleBuffer()` from each output until it returns `nil`.
///
/// `status` goes `.unknown` → `.reading` → `.completed` once every output is
/// drained, `.failed` (with `error`) when decoding fails, or `.cancelled`
/// after `cancelReading()`.
/// - Note: On Linux audio is decoded by libsndfile and converted (rate,
///   channels, sample format) by `AVAudioConverter` over libsoxr.
open class AVAssetReader: NSObject, @unchecked Sendable {
    // @unchecked: status, error, outputs and timeRange are guarded by `lock`.

    /// The reader's state.
    public enum Status: Int, @unchecked Sendable {
        /// Not started.
        case unknown = 0
        /// Reading: outputs hand out sample buffers.
        case reading = 1
        /// Every output has handed out all its samples.
        case completed = 2
        /// Reading failed; `error` says why.
        case failed = 3
        /// `cancelReading()` was called.
        case cancelled = 4
    }

    /// The asset being read.
    public let asset: AVAsset
    private let lock = NSLock()
    private var state = Status.unknown
    private var failure: NSError?
    private var attachedOutputs: [AVAssetReaderOutput] = []
    private var range = CMTimeRange(start: .zero, duration: .positiveInfinity)

    /// Creates a reader for an asset.
    /// - Throws: The asset's load error (e.g. `AVErrorFileFormatNotRecognized`)
    ///   when its media cannot be opened.
    public init(asset: AVAsset) throws {
        _ = try asset.loadedMedia()
        self.asset = asset
        super.init()
    }

    /// The reader's state.
    open var status: Status { locked { state } }

    /// Why reading failed, when `status` is `.failed`.
    open var error: (any Error)? { locked { failure } }

    /// The outputs added so far.
    open var outputs: [AVAssetReaderOutput] { locked { attachedOutputs } }

    /// The part of the asset to read (all of it by default); set it before
    /// `startReading()`.
    open var timeRange: CMTimeRange {
        get { locked { range } }
        set { locked { if state == .unknown { range = newValue } } }
    }

    /// Whether an output can be added: not yet started, not added before, and
    /// reading a track of this reader's asset.
    open func canAdd(_ output: AVAssetReaderOutput) -> Bool {
        locked { state == .unknown && !attachedOutputs.contains(output) && output.belongs(to: asset) }
    }

    /// Adds an output.
    /// - Precondition: `canAdd(output)` (Apple raises an exception otherwise).
    open func add(_ output: AVAssetReaderOutput) {
        precondition(canAdd(output),
                     "*** -[AVAssetReader addOutput:] cannot add an output after reading started, twice, "
                     + "or for a track of another asset")
        locked { attachedOutputs.append(output) }
        output.attach(to: self)
    }

    /// Starts reading; `false` (with `status == .failed` and `error` set)
    /// when an output cannot deliver what its settings ask for.
    @discardableResult
    open func startReading() -> Bool {
        let (outputs, readRange): ([AVAssetReaderOutput], CMTimeRange) = locked {
            guard state == .unknown else { return ([], range) }
            return (attachedOutputs, range)
        }
        guard status == .unknown else { return false }
        do {
            for output in outputs { try output.prepare(timeRange: readRange) }
        } catch {
            fail(error as NSError)
            return false
        }
        return locked {
            guard state == .unknown else { return false }
            state = outputs.isEmpty ? .completed : .reading
            return true
        }
    }

    /// Stops reading; outputs return `nil` from then on.
    open func cancelReading() {
        let outputs: [AVAssetReaderOutput] = locked {
            if state == .unknown || state == .reading { state = .cancelled }
            return attachedOutputs
        }
        for output in outputs { output.cancel() }
    }

    /// Records a decoding failure.
    func fail(_ error: NSError) {
        locked {
            guard state == .unknown || state == .reading else { return }
            state = .failed
            failure = error
        }
    }

    /// An output handed out its last samples: complete once all have.
    func outputFinished() {
        let outputs = self.outputs
        guard outputs.allSatisfy(\.isFinished) else { return }
        locked { if state == .reading { state = .completed } }
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
