import FormdCore
import FormdJSON
import FormdProtocol

extension Array where Element == DecodedLine {
    /// Empties a block's list of handled lines, keeping its room for a later block's. A line
    /// holding only inline or constant strings (a keystroke of short ids and texts, nearly
    /// every line of most streams) is left as it lies, any other is destroyed in place, and
    /// the list is emptied by setting its count to zero (`forgetFreed`): the array's own
    /// destroy takes about 240 instructions a keystroke line, through the outlined value
    /// witnesses of its nested enums, though it releases nothing. A list whose lines nearly
    /// all hold something to release (ids out of line on every line) is emptied the
    /// ordinary way, in one pass (`mostlyReleasesNothing`).
    mutating func freeSpent() {
        guard LineWords.layoutHolds, countIsInHeader(), mostlyReleasesNothing() else {
            removeAll(keepingCapacity: true)
            return
        }
        withUnsafeMutableBufferPointer { lines in
            for i in lines.indices { DecodedLine.freeInPlace(lines.baseAddress! + i) }
        }
        forgetFreed()
    }
}

extension DecodedLine: FreedInPlace {
    /// Whether destroying the line at `slot` would release nothing: blank, or a request to
    /// a form of the keystroke kinds whose every string (id, method, form, field, text) is
    /// inline or a constant (`isImmortal`). Read in place: taken as a value it would be
    /// copied. Only where `LineWords.layoutHolds`.
    @inline(__always)
    static func releasesNothing(_ slot: UnsafeMutablePointer<DecodedLine>) -> Bool {
        guard case .request(let envelope) = slot.pointee else {
            if case .blank = slot.pointee { return true }
            return false
        }
        switch envelope.id {
        case .number(let n)?: guard n.literal.isImmortal else { return false }
        case .string(let s)?: guard s.isImmortal else { return false }
        case .null?, nil: break
        }
        guard envelope.method?.isImmortal ?? true else { return false }
        // Matched down to the strings in one pattern: a command bound whole is copied.
        switch envelope.call {
        case .success(.form(let form, .setText(let field, let text))):
            return form.isImmortal && field.isImmortal && text.isImmortal
        case .success(.form(let form, .insertText(let field, let text))):
            return form.isImmortal && (field?.isImmortal ?? true) && text.isImmortal
        case .success(.form(let form, .delete(let field, _, _))), .success(.form(let form, .select(let field, _, _))),
             .success(.form(let form, .moveCaret(let field, _, _))), .success(.form(let form, .undo(let field))),
             .success(.form(let form, .redo(let field))), .success(.form(let form, .pressReturn(let field))):
            return form.isImmortal && (field?.isImmortal ?? true)
        case .success(.form(let form, .demandFocus(let field, _))):
            return form.isImmortal && field.isImmortal
        case .success(.form(let form, .focusNext)), .success(.form(let form, .focusPrevious)):
            return form.isImmortal
        default:
            return false
        }
    }
}

/// How the library lays out what `DecodedLine.releasesNothing` reads: strings as
/// `StringWords` checks, and the values a keystroke command carries beside its strings
/// holding no references. Checked once: where it does not hold, lines are destroyed the
/// ordinary way.
enum LineWords {
    static let layoutHolds: Bool = StringWords.layoutHolds && _isPOD(DeleteDirection.self) && _isPOD(TextUnit.self)
        && _isPOD(CaretTarget.self) && _isPOD(Demand.self) && _isPOD(Bool.self) && _isPOD(Int.self)
}
