import CFloat16
import CSpeechKernels

extension AttentionHead {
    /// One head's key and value rows as they are stored: float (the
    /// self-attention cache), half or int8 (`CrossAttentionCache`).
    struct StoredRows {
        /// Scales of int8 rows.
        enum Scales {
            case none
            /// One per row, for the kernels.
            case rows(UnsafePointer<Float>)
            /// Keys packed for the integer product kernels (`CrossAttentionCache.Rows.packed`).
            case packed(Packed)
        }

        /// Int8 keys as `sk_pack_rows` packs weight rows, one scale per
        /// channel: the scales go into the queries, which are quantized, and
        /// the scores are `sk_gemm_s8_residual` of them with the keys.
        struct Packed {
            /// `[headWidth]`.
            var channels: UnsafePointer<Float>
            /// Each row's byte sum, and a unit scale per row (the kernels' weight scales).
            var sums: UnsafePointer<Int32>
            var ones: UnsafePointer<Float>
        }

        /// The keys or the values.
        struct Part {
            var element: sk_element
            /// Row 0's first element.
            var base: UnsafeRawPointer
            var scales = Scales.none

            var rowScales: UnsafePointer<Float>? {
                if case .rows(let scales) = scales { scales } else { nil }
            }

            var packed: Packed? {
                if case .packed(let packed) = scales { packed } else { nil }
            }

            /// The part `elements` further on, the same scales (another sequence's slot of a cache).
            func advanced(by elements: Int) -> Self {
                if case .none = scales {} else { preconditionFailure("scales do not follow an offset") }
                return Self(element: element, base: base + elements * element.size, scales: scales)
            }

            /// Row `j` in float (row layouts: packed keys are never widened).
            func widen(_ j: Int, stride: Int, into out: UnsafeMutablePointer<Float>, width: Int) {
                switch element {
                case SK_ELEMENT_HALF:
                    cf16_to_f32(base.assumingMemoryBound(to: UInt16.self) + j * stride, out, width)
                case SK_ELEMENT_INT8:
                    let row = base.assumingMemoryBound(to: Int8.self) + j * stride
                    switch scales {
                    case .rows(let scales): for d in 0..<width { out[d] = Float(row[d]) * scales[j] }
                    case .none: for d in 0..<width { out[d] = Float(row[d]) }
                    case .packed: preconditionFailure("packed rows are read by the product kernels only")
                    }
                default:
                    out.update(from: base.assumingMemoryBound(to: Float.self) + j * stride, count: width)
                }
            }
        }

        var keys: Part
        var values: Part
        /// Elements from one row to the next.
        var stride: Int
        var count: Int

        static func float(key: UnsafePointer<Float>, value: UnsafePointer<Float>, stride: Int, count: Int) -> Self {
            Self(keys: Part(element: SK_ELEMENT_FLOAT, base: UnsafeRawPointer(key)),
                 values: Part(element: SK_ELEMENT_FLOAT, base: UnsafeRawPointer(value)), stride: stride, count: count)
        }

        /// The rows `elements` further on (another sequence's slot of a cache).
        func advanced(by elements: Int) -> Self {
            Self(keys: keys.advanced(by: elements), values: values.advanced(by: elements), stride: stride, count: count)
        }
    }
}

extension sk_element {
    /// Bytes an element takes.
    var size: Int {
        switch self {
        case SK_ELEMENT_FLOAT: 4
        case SK_ELEMENT_HALF: 2
        default: 1
        }
    }
}
