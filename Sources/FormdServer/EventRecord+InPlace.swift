import FormdCore

extension Array where Element == EventRecord {
    /// Hands each record of `range` to `body` where it lies: read through the array it
    /// would be copied, and moved out and back it is copied twice (PERFORMANCE.md, "The engine").
    mutating func forEachInPlace(_ range: Range<Int>, _ body: (inout EventRecord) -> Void) {
        withUnsafeMutableBufferPointer { records in
            for i in range { body(&records[i]) }
        }
    }
}
