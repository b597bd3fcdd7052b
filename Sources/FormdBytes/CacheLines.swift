#if canImport(CFormdPrefetch)
import CFormdPrefetch
#endif

/// Memory about to be read, fetched ahead.
///
/// Why: a value spread over several cache lines, first read one line at a time by the
/// code that needs each, costs one memory latency per line in turn; asked for at once,
/// the lines arrive together (a field of a large form: PERFORMANCE.md, "The 10,000-field
/// mix"). Built without the C module, it asks for nothing.
public enum CacheLines {
    /// The bytes `start..<start + count` will be read soon: every cache line they touch is
    /// asked for now. A hint only: it reads nothing and never faults.
    @inlinable @inline(__always)
    public static func prefetch(_ start: UnsafeRawPointer, count: Int) {
        #if canImport(CFormdPrefetch)
        var offset = 0
        while offset < count {
            formd_prefetch(start + offset)
            offset += 64
        }
        if count > 0 { formd_prefetch(start + (count - 1)) }
        #endif
    }
}
