import CFloat16
import Foundation

/// A tensor read from a CTranslate2 `model.bin`, converted to fp32, or for a
/// weight matrix kept in a compact form (half, int8), that form instead
/// (then `values` is empty).
/// - Shape: `shape`, row-major; `values.count == shape.reduce(1, *)`.
struct Tensor: Sendable {
    var shape: [Int]
    var values: [Float]
    var compact: Linear.Weights?
}

/// Reader for CTranslate2's `model.bin` (binary version 6, little-endian, no
/// alignment): `u32 version, str spec, u32 revision, u32 n_vars`, then per
/// variable `str name, u8 rank, u32 dims[rank], u8 dtype, u32 nbytes, bytes`,
/// then `u32 n_aliases` and `(str alias, str target)` pairs, where
/// `str = u16 length (with NUL), bytes, NUL`.
///
/// The file is read sequentially in chunks and each tensor converted as it
/// arrives, so the fp16 file and the fp32 weights are never both resident:
/// that keeps peak memory at the size of the fp32 weights. Matrices the
/// caller wants as int8 are quantized a few rows at a time as they arrive,
/// and those it wants in half precision keep the file's fp16 bits, so
/// neither is ever held as fp32 at all.
struct ModelFile {
    let url: URL
    var specName = ""
    var tensors: [String: Tensor] = [:]
    var scalars: [String: Double] = [:]

    private enum DType: UInt8 { case f32 = 0, i8, i16, i32, f16, bf16 }

    /// Reads every variable of the file; the 2-D ones `storing` gives a form
    /// for (by name and shape) are kept in that form only.
    /// - Throws: `EngineError(.modelNotFound)` if the file is missing,
    ///   `EngineError(.invalidModelFile)` if it is truncated or malformed.
    init(contentsOf url: URL, storing: (String, [Int]) -> WeightForm? = { _, _ in nil }) throws {
        self.url = url
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw EngineError(.modelNotFound, "No model file at \(url.path). Run `speech assets install` to install the model.")
        }
        defer { try? handle.close() }
        let fileSize = (try? handle.seekToEnd()).map(Int.init) ?? 0
        do { try handle.seek(toOffset: 0) } catch {
            throw EngineError(.invalidModelFile, "Could not read \(url.path).", underlying: error)
        }
        var reader = ChunkedReader(handle: handle, fileURL: url, fileSize: fileSize)

        let version = try reader.u32()
        guard version == 6 else {
            throw EngineError(.invalidModelFile,
                              "\(url.path) has model.bin version \(version); only version 6 is supported. Reinstall with `speech assets install`.")
        }
        specName = try reader.string()
        _ = try reader.u32() // spec revision
        let variableCount = try reader.u32()
        for _ in 0..<variableCount {
            let name = try reader.string()
            let rank = Int(try reader.u8())
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(Int(try reader.u32())) }
            let rawType = try reader.u8()
            let byteCount = Int(try reader.u32())
            guard let dtype = DType(rawValue: rawType) else {
                throw reader.malformed("variable \(name) has unknown dtype \(rawType)")
            }
            let width: Int = switch dtype { case .f32, .i32: 4; case .i16, .f16, .bf16: 2; case .i8: 1 }
            // Sizes come from the file: multiply without overflow and never
            // allocate more than the file can still hold.
            guard let declaredBytes = Self.elementCount(shape + [width]), declaredBytes == byteCount else {
                throw reader.malformed("variable \(name) declares \(byteCount) bytes for shape \(shape)")
            }
            guard byteCount <= reader.remainingByteCount else {
                throw reader.malformed("variable \(name) needs \(byteCount) bytes but only \(reader.remainingByteCount) remain: truncated")
            }
            let count = byteCount / width
            // Matrices, and tables of rank 3 read as `[shape[0], the rest]` (convolutions).
            switch rank >= 2 && count > 0 ? storing(name, shape) : nil {
            case .int8(let arithmetic) where rank == 2:
                let matrix = try Self.readQuantized(name: name, shape: shape, width: width, dtype: dtype,
                                                    arithmetic: arithmetic, from: &reader)
                tensors[name] = Tensor(shape: shape, values: [], compact: .int8(matrix))
                continue
            case .half where dtype == .f16:
                let matrix = try Self.readHalf(name: name, shape: shape, from: &reader)
                tensors[name] = Tensor(shape: shape, values: [], compact: .half(matrix))
                continue
            case .half, .int8, nil:
                break
            }
            let values = try Self.readValues(name: name, count: count, width: width, dtype: dtype, from: &reader)
            if rank == 0 {
                scalars[name] = Double(values.first ?? 0)
            } else {
                tensors[name] = Tensor(shape: shape, values: values)
            }
        }
        let aliasCount = try reader.u32()
        for _ in 0..<aliasCount {
            let alias = try reader.string()
            let target = try reader.string()
            if let tensor = tensors[target] { tensors[alias] = tensor }
        }
    }

    /// The product of a shape's dimensions, or `nil` when it overflows.
    static func elementCount(_ shape: [Int]) -> Int? {
        var count = 1
        for dimension in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            if overflow { return nil }
            count = product
        }
        return count
    }

    /// Reads `count` values into one fp32 array, converting piece by piece so
    /// that no byte buffer the size of a whole tensor (53 MB for the
    /// embeddings) is ever held next to the weights.
    private static func readValues(name: String, count: Int, width: Int, dtype: DType,
                                   from reader: inout ChunkedReader) throws -> [Float] {
        let piece = max(1, ChunkedReader.chunkSize / width)
        var failure: (any Error)?
        let values = [Float](unsafeUninitializedCapacity: count) { out, initialized in
            var done = 0
            while done < count {
                let n = min(piece, count - done)
                do {
                    let finite = try reader.withBytes(n * width) { raw in
                        let slice = UnsafeMutableBufferPointer(rebasing: out[done..<(done + n)])
                        convert(raw, into: slice, dtype: dtype)
                        return allFinite(UnsafeBufferPointer(slice))
                    }
                    // A flipped exponent bit makes an Inf or NaN weight, which
                    // would turn every later activation into NaN.
                    if !finite { throw reader.malformed("variable \(name) holds Inf or NaN values") }
                } catch {
                    failure = error
                    // Leave the array fully initialised before throwing below.
                    (out.baseAddress! + done).initialize(repeating: 0, count: count - done)
                    break
                }
                done += n
            }
            initialized = count
        }
        if let failure { throw failure }
        return values
    }

    /// Reads a `[rows, columns]` matrix a few rows at a time through one
    /// reusable float buffer, quantizing each piece into the int8 matrix.
    private static func readQuantized(name: String, shape: [Int], width: Int, dtype: DType,
                                      arithmetic: QuantizedMatrix.Arithmetic,
                                      from reader: inout ChunkedReader) throws -> QuantizedMatrix {
        let (rows, columns) = (shape[0], shape[1])
        var matrix = QuantizedMatrix(outCount: rows, inCount: columns, arithmetic: arithmetic)
        let piece = max(1, ChunkedReader.chunkSize / (width * columns))
        var scratch = [Float](repeating: 0, count: min(piece, rows) * columns)
        var first = 0
        while first < rows {
            let n = min(piece, rows - first)
            let finite = try scratch.withUnsafeMutableBufferPointer { buffer in
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<(n * columns)])
                return try reader.withBytes(n * columns * width) { raw in
                    convert(raw, into: slice, dtype: dtype)
                    return allFinite(UnsafeBufferPointer(slice))
                }
            }
            if !finite { throw reader.malformed("variable \(name) holds Inf or NaN values") }
            scratch.withUnsafeBufferPointer { matrix.setRows($0.baseAddress!, first: first, count: n) }
            first += n
        }
        return matrix
    }

    /// Reads a float16 `[rows, columns]` matrix keeping its bits, a piece at
    /// a time, checking the bits themselves for Inf and NaN.
    private static func readHalf(name: String, shape: [Int], from reader: inout ChunkedReader) throws -> HalfMatrix {
        let (rows, columns) = (shape[0], shape.dropFirst().reduce(1, *))
        let piece = max(1, ChunkedReader.chunkSize / (2 * columns))
        var bits = [UInt16](repeating: 0, count: rows * columns)
        var first = 0
        while first < rows {
            let n = min(piece, rows - first)
            let finite = try reader.withBytes(n * columns * 2) { raw in
                bits.withUnsafeMutableBufferPointer { target in
                    let slice = UnsafeMutableBufferPointer(rebasing: target[(first * columns)..<((first + n) * columns)])
                    UnsafeMutableRawBufferPointer(slice).copyMemory(from: raw)
                    return allFinite(halves: UnsafeBufferPointer(slice))
                }
            }
            if !finite { throw reader.malformed("variable \(name) holds Inf or NaN values") }
            first += n
        }
        return HalfMatrix(bits: bits, outCount: rows, inCount: columns)
    }

    /// Whether every IEEE binary16 value is finite: Inf and NaN are the
    /// patterns whose exponent bits are all ones (a branch-free count).
    static func allFinite(halves: UnsafeBufferPointer<UInt16>) -> Bool {
        var nonFinite = 0
        for value in halves { nonFinite &+= value & 0x7C00 == 0x7C00 ? 1 : 0 }
        return nonFinite == 0
    }

    /// Whether every value is finite; `0 * x` is NaN exactly for Inf and NaN,
    /// and the branch-free sum vectorises (about 30 ms for 74 M values).
    static func allFinite(_ values: UnsafeBufferPointer<Float>) -> Bool {
        var probe: Float = 0
        for value in values { probe += value * 0 }
        return probe == 0
    }

    private static func convert(_ raw: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<Float>, dtype: DType) {
        let count = out.count
        switch dtype {
        case .f16:
            cf16_to_f32(raw.baseAddress, out.baseAddress, count)
        case .f32:
            for i in 0..<count { out[i] = raw.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) }
        case .bf16:
            for i in 0..<count {
                let bits = UInt32(raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)) << 16
                out[i] = Float(bitPattern: bits)
            }
        case .i8:
            for i in 0..<count { out[i] = Float(raw.load(fromByteOffset: i, as: Int8.self)) }
        case .i16:
            for i in 0..<count { out[i] = Float(raw.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)) }
        case .i32:
            for i in 0..<count { out[i] = Float(raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)) }
        }
    }

    /// The tensor named `name`, checked against an expected shape.
    func tensor(_ name: String, shape expected: [Int]) throws -> [Float] {
        guard let tensor = tensors[name] else {
            throw EngineError(.invalidModelFile, "\(url.path) has no variable \(name). Reinstall with `speech assets install`.")
        }
        guard tensor.shape == expected else {
            throw EngineError(.invalidModelFile,
                              "\(url.path): variable \(name) has shape \(tensor.shape), expected \(expected). Reinstall with `speech assets install`.")
        }
        return tensor.values
    }

    /// Removes and returns a tensor, so large weights are not held twice.
    mutating func take(_ name: String, shape expected: [Int]) throws -> [Float] {
        let values = try tensor(name, shape: expected)
        if tensors[name]?.compact != nil {
            throw EngineError(.invalidModelFile, "\(url.path): variable \(name) was loaded in a compact form where float is needed. Load the model with compute type float32.")
        }
        tensors[name] = nil
        return values
    }

    /// Removes and returns a weight matrix in the form it was loaded in
    /// (the form `storing` gave it, else float).
    mutating func takeWeights(_ name: String, shape expected: [Int]) throws -> Linear.Weights {
        let values = try tensor(name, shape: expected)
        let compact = tensors[name]?.compact
        tensors[name] = nil
        return compact ?? .float(values)
    }
}

/// Sequential reader over a file handle with a reusable buffer.
private struct ChunkedReader {
    let handle: FileHandle
    let fileURL: URL
    private var buffer: [UInt8] = []
    private var position = 0
    /// The file's size in bytes when opened.
    let fileSize: Int
    /// Bytes consumed so far (read and handed out).
    private(set) var consumedByteCount = 0
    static let chunkSize = 4 << 20

    init(handle: FileHandle, fileURL: URL, fileSize: Int) {
        self.handle = handle
        self.fileURL = fileURL
        self.fileSize = fileSize
    }

    /// Bytes of the file not read yet.
    var remainingByteCount: Int { max(0, fileSize - consumedByteCount) }

    func malformed(_ detail: String) -> EngineError {
        EngineError(.invalidModelFile,
                    "\(fileURL.path) is corrupted (\(detail)). Reinstall with `speech assets install`.")
    }

    /// Makes at least `count` unread bytes available, or throws at end of file.
    private mutating func fill(_ count: Int) throws {
        if buffer.count - position >= count { return }
        buffer.removeFirst(position)
        position = 0
        while buffer.count < count {
            let want = max(Self.chunkSize, count - buffer.count)
            let data: Data
            do { data = try handle.read(upToCount: want) ?? Data() } catch {
                throw EngineError(.invalidModelFile, "Could not read \(fileURL.path).", underlying: error)
            }
            if data.isEmpty { throw malformed("file ends early: truncated") }
            buffer.append(contentsOf: data)
        }
    }

    mutating func withBytes<R>(_ count: Int, _ body: (UnsafeRawBufferPointer) -> R) throws -> R {
        try fill(count)
        let start = position
        position += count
        consumedByteCount += count
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
    }

    mutating func u8() throws -> UInt8 { try withBytes(1) { $0[0] } }
    mutating func u16() throws -> UInt16 { try withBytes(2) { $0.loadUnaligned(as: UInt16.self) } }
    mutating func u32() throws -> UInt32 { try withBytes(4) { $0.loadUnaligned(as: UInt32.self) } }

    mutating func string() throws -> String {
        let length = Int(try u16())
        guard length > 0 else { throw malformed("empty string field") }
        return try withBytes(length) { String(decoding: $0.prefix(length - 1), as: UTF8.self) }
    }
}
