import FormdCore

extension Array where Element == EventRecord {
    /// Hands each record of `range` to `body` where it lies, moved out of its slot and
    /// back: read through the array it would be copied (PERFORMANCE.md, "The engine").
    mutating func forEachInPlace(_ range: Range<Int>, _ body: (EventRecord) -> Void) {
        withUnsafeMutableBufferPointer { records in
            for i in range {
                let slot = records.baseAddress! + i
                let record = slot.move()
                body(record)
                slot.initialize(to: consume record)
            }
        }
    }
}
