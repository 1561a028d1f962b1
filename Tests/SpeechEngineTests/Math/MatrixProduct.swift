/// The `[rows, outCount]` output of a product over `input`, NaN-filled
/// first so that an output a kernel skips shows: the matrix suites' one way
/// to call a kernel on arrays.
func product(_ input: [Float], outCount: Int, rows: Int,
             _ body: (UnsafePointer<Float>, UnsafeMutablePointer<Float>) -> Void) -> [Float] {
    var output = [Float](repeating: .nan, count: rows * outCount)
    input.withUnsafeBufferPointer { x in
        output.withUnsafeMutableBufferPointer { y in body(x.baseAddress!, y.baseAddress!) }
    }
    return output
}
