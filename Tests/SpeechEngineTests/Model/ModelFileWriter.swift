import Foundation

/// Writes CTranslate2 `model.bin` files (binary version 6) for tests: the
/// layout `ModelFile` documents, built by hand so that every field, dtype and
/// failure can be exercised without a real checkpoint.
struct ModelFileWriter {
    /// CTranslate2's dtype codes.
    enum DType: UInt8 { case f32 = 0, i8, i16, i32, f16, bf16 }

    var version: UInt32 = 6
    var specName = "WhisperSpec"
    var revision: UInt32 = 3
    private(set) var variables: [(name: String, shape: [Int], dtype: UInt8, bytes: [UInt8])] = []
    var aliases: [(alias: String, target: String)] = []

    /// Adds a variable with explicit raw bytes (any dtype code, even an invalid one).
    mutating func add(_ name: String, shape: [Int], dtypeCode: UInt8, bytes: [UInt8]) {
        variables.append((name, shape, dtypeCode, bytes))
    }

    mutating func add(_ name: String, shape: [Int], f32 values: [Float]) {
        add(name, shape: shape, dtypeCode: DType.f32.rawValue, bytes: values.flatMap { Self.littleEndian($0.bitPattern) })
    }

    mutating func add(_ name: String, shape: [Int], f16 values: [Float]) {
        add(name, shape: shape, dtypeCode: DType.f16.rawValue,
            bytes: values.flatMap { Self.littleEndian(Float16($0).bitPattern) })
    }

    /// bfloat16: the top half of the float's bits (the test values are exact in bf16).
    mutating func add(_ name: String, shape: [Int], bf16 values: [Float]) {
        add(name, shape: shape, dtypeCode: DType.bf16.rawValue,
            bytes: values.flatMap { Self.littleEndian(UInt16($0.bitPattern >> 16)) })
    }

    mutating func add(_ name: String, shape: [Int], i8 values: [Int8]) {
        add(name, shape: shape, dtypeCode: DType.i8.rawValue, bytes: values.map { UInt8(bitPattern: $0) })
    }

    mutating func add(_ name: String, shape: [Int], i16 values: [Int16]) {
        add(name, shape: shape, dtypeCode: DType.i16.rawValue, bytes: values.flatMap { Self.littleEndian(UInt16(bitPattern: $0)) })
    }

    mutating func add(_ name: String, shape: [Int], i32 values: [Int32]) {
        add(name, shape: shape, dtypeCode: DType.i32.rawValue, bytes: values.flatMap { Self.littleEndian(UInt32(bitPattern: $0)) })
    }

    /// The file's bytes: header, variables (each declaring its byte count), aliases.
    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        out += Self.littleEndian(version)
        out += Self.string(specName)
        out += Self.littleEndian(revision)
        out += Self.littleEndian(UInt32(variables.count))
        for variable in variables {
            out += Self.string(variable.name)
            out.append(UInt8(variable.shape.count))
            for dimension in variable.shape { out += Self.littleEndian(UInt32(dimension)) }
            out.append(variable.dtype)
            out += Self.littleEndian(UInt32(variable.bytes.count))
            out += variable.bytes
        }
        out += Self.littleEndian(UInt32(aliases.count))
        for pair in aliases {
            out += Self.string(pair.alias)
            out += Self.string(pair.target)
        }
        return out
    }

    /// Writes the file into a fresh temporary folder and returns its URL.
    func write(named name: String = "model.bin", in directory: URL? = nil) throws -> URL {
        let folder = try directory ?? Self.temporaryDirectory()
        let url = folder.appendingPathComponent(name)
        try Data(bytes()).write(to: url)
        return url
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("speechcompat-modelfile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `u16 length (with NUL), bytes, NUL`.
    static func string(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        return littleEndian(UInt16(utf8.count + 1)) + utf8 + [0]
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
