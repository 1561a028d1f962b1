// CMBlockBuffer: the bytes behind a sample buffer, and the C-style calls that
// read them (API.md §2.14; Core Media's CMBlockBuffer.h).

import Foundation

/// A block buffer's length or offset parameter is out of range.
public let kCMBlockBufferBadOffsetParameterErr: OSStatus = -12703
/// A length parameter is out of range.
public let kCMBlockBufferBadLengthParameterErr: OSStatus = -12704
/// A required pointer parameter is missing.
public let kCMBlockBufferBadPointerParameterErr: OSStatus = -12705
/// The block buffer holds no data.
public let kCMBlockBufferEmptyBBufErr: OSStatus = -12706

/// A contiguous range of bytes holding media data, shared by reference.
///
/// On Apple platforms a block buffer may chain memory blocks; code reaches
/// its bytes with `CMBlockBufferGetDataPointer` or `CMBlockBufferCopyDataBytes`.
/// - Note: On Linux every block buffer is one contiguous, 16-byte aligned
///   allocation that it owns (`CMBlockBufferIsRangeContiguous` is always true
///   for valid ranges). Pointers into it stay valid while the buffer lives.
public final class CMBlockBuffer: @unchecked Sendable {
    // @unchecked: the bytes are written only while the buffer is built, then
    // read; writers through data pointers take the same care as on Apple.

    /// The bytes.
    let bytes: UnsafeMutableRawPointer
    /// The number of bytes.
    public let dataLength: Int

    /// Creates a zeroed block buffer of `length` bytes.
    init(length: Int) {
        dataLength = max(0, length)
        bytes = .allocate(byteCount: max(dataLength, 1), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(dataLength, 1))
    }

    /// Creates a block buffer holding a copy of `data`.
    convenience init(copying data: Data) {
        self.init(length: data.count)
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { bytes.copyMemory(from: base, byteCount: data.count) }
        }
    }

    deinit { bytes.deallocate() }

    /// Whether the buffer holds no bytes.
    public var isEmpty: Bool { dataLength == 0 }

    /// A copy of the bytes (the Core Media overlay's `dataBytes()`).
    public func dataBytes() throws -> Data {
        Data(bytes: bytes, count: dataLength)
    }

    /// Calls `body` with the bytes from `offset` on (the overlay's accessor).
    /// - Throws: An `NSOSStatusErrorDomain` error with
    ///   `kCMBlockBufferBadOffsetParameterErr` for an offset past the end.
    public func withUnsafeMutableBytes<Result>(atOffset offset: Int = 0,
                                               _ body: (UnsafeMutableRawBufferPointer) throws -> Result) throws -> Result {
        guard offset >= 0, offset <= dataLength else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kCMBlockBufferBadOffsetParameterErr), userInfo: [
                NSLocalizedDescriptionKey: "Offset \(offset) is outside the block buffer's \(dataLength) bytes."])
        }
        return try body(UnsafeMutableRawBufferPointer(start: bytes + offset, count: dataLength - offset))
    }
}

/// The number of bytes in a block buffer.
public func CMBlockBufferGetDataLength(_ theBuffer: CMBlockBuffer) -> Int { theBuffer.dataLength }

/// Whether a block buffer holds no bytes.
public func CMBlockBufferIsEmpty(_ theBuffer: CMBlockBuffer) -> Bool { theBuffer.isEmpty }

/// Whether `length` bytes from `offset` are contiguous in memory (always, for
/// an in-range request on Linux; `length` 0 means "to the end").
public func CMBlockBufferIsRangeContiguous(_ theBuffer: CMBlockBuffer, atOffset offset: Int, length: Int) -> Bool {
    let wanted = length == 0 ? theBuffer.dataLength - offset : length
    return offset >= 0 && wanted >= 0 && offset + wanted <= theBuffer.dataLength
}

/// Copies `dataLength` bytes from `offsetToData` into `destination`.
/// - Returns: `noErr`, or `kCMBlockBufferBadOffsetParameterErr` /
///   `kCMBlockBufferBadLengthParameterErr` when the range is out of bounds.
@discardableResult
public func CMBlockBufferCopyDataBytes(_ theSourceBuffer: CMBlockBuffer, atOffset offsetToData: Int, dataLength: Int,
                                       destination: UnsafeMutableRawPointer) -> OSStatus {
    guard offsetToData >= 0, offsetToData <= theSourceBuffer.dataLength else { return kCMBlockBufferBadOffsetParameterErr }
    guard dataLength >= 0, offsetToData + dataLength <= theSourceBuffer.dataLength else {
        return kCMBlockBufferBadLengthParameterErr
    }
    destination.copyMemory(from: theSourceBuffer.bytes + offsetToData, byteCount: dataLength)
    return noErr
}

/// Points at the bytes from `offset`: `lengthAtOffsetOut` gets the contiguous
/// length there, `totalLengthOut` the buffer's length.
/// - Returns: `noErr`, or `kCMBlockBufferBadOffsetParameterErr` for an offset
///   past the end.
@discardableResult
public func CMBlockBufferGetDataPointer(_ theBuffer: CMBlockBuffer, atOffset offset: Int,
                                        lengthAtOffsetOut: UnsafeMutablePointer<Int>?,
                                        totalLengthOut: UnsafeMutablePointer<Int>?,
                                        dataPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> OSStatus {
    guard offset >= 0, offset < theBuffer.dataLength || (offset == 0 && theBuffer.dataLength == 0) else {
        return kCMBlockBufferBadOffsetParameterErr
    }
    lengthAtOffsetOut?.pointee = theBuffer.dataLength - offset
    totalLengthOut?.pointee = theBuffer.dataLength
    dataPointerOut?.pointee = (theBuffer.bytes + offset).assumingMemoryBound(to: CChar.self)
    return noErr
}
