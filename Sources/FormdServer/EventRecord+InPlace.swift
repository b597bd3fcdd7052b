import FormdCore

extension Array where Element == EventRecord {
    /// Hands each record of `range` to `body` where it lies: moved out of its slot and
    /// moved back. Read through the array it would be copied (Swift 6.3 copies an element
    /// read from memory it cannot prove untouched), and the copy destroyed apart from the
    /// original: about 250 instructions an event (callgrind).
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
