import FormdCore

extension EventRecord {
    /// About the bytes this event holds as a record and takes once written (its texts and
    /// a fixed part), for the stdio server to count what a burst holds before it is encoded.
    @inline(__always)
    var heldBytes: Int {
        let fixed = 160
        switch event {
        case .textChanged(_, _, let length, _, _):
            // A byte a character: exact for ASCII, and the length is at hand where the
            // text's byte count is not (a masked field has no text in the event).
            return fixed + length
        case .deletePressed(_, let textBefore):
            return fixed + textBefore.utf8.count
        case .formDefined(let s), .formReset(let s):
            return s.fields.reduce(fixed) { $0 + EventRecord.heldBytes(of: $1) }
        case .fieldAdded(let f, _):
            return fixed + EventRecord.heldBytes(of: f)
        case .fieldChanged(_, let changes):
            return 5 * fixed + (changes.text?.utf8.count ?? 0) + (changes.display?.utf8.count ?? 0)
        case .submitted(let values, let withheld):
            return values.reduce(fixed + withheld.count * 32) { $0 + 32 + $1.field.utf8.count + $1.text.utf8.count }
        case .submitFailed(let errors):
            return fixed + errors.count * fixed
        case .validityChanged, .selectionChanged, .responderChanged, .focusChanged, .demandChanged,
             .returnPressed, .changeRejected, .fieldRemoved:
            return fixed
        }
    }

    /// A field's state as written: its spec keys and flags, its text and its display.
    private static func heldBytes(of f: FieldSnapshot) -> Int {
        800 + f.id.utf8.count + (f.text?.utf8.count ?? 0) + f.display.utf8.count
    }
}

extension Array where Element == EventRecord {
    /// `heldBytes` of the records from `start` on.
    @inline(__always)
    func heldBytes(from start: Int) -> Int {
        // Read in place: a record taken out of the array would be copied, its texts retained.
        withUnsafeBufferPointer { records in
            var total = 0
            for i in start..<records.count { total += records[i].heldBytes }
            return total
        }
    }
}
