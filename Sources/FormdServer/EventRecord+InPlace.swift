import FormdCore

extension Array where Element == EventRecord {
    /// Hands each record of `range` to `body` where it lies: read through the array it
    /// would be copied, and moved out and back it is copied twice (PERFORMANCE.md, "The
    /// engine"). With `freeing`, each record is freed once written (`freeInPlace`), and the
    /// list must be emptied with `forgetFreed` before anything else touches it.
    mutating func forEachInPlace(_ range: Range<Int>, freeing: Bool = false, _ body: (inout EventRecord) -> Void) {
        withUnsafeMutableBufferPointer { records in
            for i in range {
                body(&records[i])
                if freeing { EventRecord.freeInPlace(records.baseAddress! + i) }
            }
        }
    }

    /// Whether this list is worth freeing as it is written (`forEachInPlace(freeing:)`)
    /// and can then be emptied without destroying its records (`forgetFreed`): enough of
    /// its first records hold nothing to release (`Array.mostlyReleasesNothing`), and its
    /// storage holds its count and capacity in the two words before its first record, as
    /// the library lays an array out. Looked at before any record is freed, so a list laid
    /// out otherwise is freed the ordinary way.
    mutating func canForgetFreed() -> Bool {
        guard countIsInHeader() else { return false }
        return mostlyReleasesNothing()
    }
}

extension EventRecord: FreedInPlace {
    /// Whether destroying the record at `slot` would release nothing: it is an event of
    /// the keystroke kinds and every string it holds is inline or a constant (`isImmortal`).
    /// Read through its words, in place: taken as a value it would be copied.
    @inline(__always)
    static func releasesNothing(_ slot: UnsafeMutablePointer<EventRecord>) -> Bool {
        guard StringWords.layoutHolds, slot.pointee.form.isImmortal else { return false }
        switch slot.pointee.event {
        case .textChanged(let id, let text, _, let edit, _):
            return id.isImmortal && (text?.isImmortal ?? true) && edit.text.isImmortal && edit.removed.isImmortal
        case .selectionChanged(let id, _), .responderChanged(let id, _), .fieldRemoved(let id),
             .demandChanged(let id, _, _), .returnPressed(let id, _), .changeRejected(let id, _):
            return id.isImmortal
        case .focusChanged(let from, let to):
            return (from?.isImmortal ?? true) && (to?.isImmortal ?? true)
        case .deletePressed(let id, let before):
            return id.isImmortal && before.isImmortal
        default:
            return false
        }
    }
}

/// How the library lays strings out, as `releasesNothing` reads them: an inline string
/// and a constant one carry the immortal flag (the top bit of their second word), a string
/// made at run time does not; and the values the keystroke events carry beside their
/// strings hold no references. Checked once, against strings of each kind and the types'
/// own layouts: where it does not hold, records are destroyed the ordinary way.
enum StringWords {
    static let layoutHolds: Bool = {
        let made = String(repeating: "x", count: 40)
        let strings = "".isImmortal && "short".isImmortal && "a constant longer than fifteen bytes".isImmortal && !made.isImmortal
        let values = _isPOD(TextRange.self) && _isPOD(Demand.self) && _isPOD(DemandOutcome.self) && _isPOD(ReturnOutcome.self)
            && _isPOD(RejectReason.self) && _isPOD(Int.self)
            && MemoryLayout<TextEdit>.size == 2 * MemoryLayout<Int>.size + 2 * MemoryLayout<String>.size
        return strings && values
    }()
}

extension String {
    /// Whether releasing this string releases nothing: held inline, or a constant.
    @inline(__always)
    var isImmortal: Bool { unsafeBitCast(self, to: (UInt64, UInt64).self).1 &>> 63 == 1 }
}
