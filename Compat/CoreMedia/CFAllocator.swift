// CFAllocator: the Core Foundation allocator parameter that Core Media calls
// take. swift-corelibs-foundation does not export Core Foundation's types, so
// CoreMedia declares the name; Linux Core Media always uses the default
// allocator.

/// A Core Foundation memory allocator.
/// - Note: On Linux there is only the default allocator: pass `nil` or
///   `kCFAllocatorDefault`; other allocators are never created.
public final class CFAllocator: @unchecked Sendable {
    private init() {}
}

/// The default allocator (`nil`, as in Core Foundation).
public let kCFAllocatorDefault: CFAllocator? = nil
