/// Caret motion by character, word and line.
///
/// A word is a run of letters, digits and underscores. In a masked field the whole text
/// counts as one word and one line, as in native password fields, so word and line
/// motion reveal nothing about where the hidden text has spaces or line breaks.
extension TextBuffer {
    /// By a character: a byte where every character is one, a known character
    /// (`CombiningScalars.knownCharacter`) found from its scalars, else the library's
    /// grapheme breaking.
    func after(_ c: Cursor) -> Cursor {
        guard c.offset < length else { return c }
        if isOneBytePerCharacter { return Cursor(index(utf8: c.offset + 1), c.offset + 1) }
        let from = utf8Offset(c.index)
        if let end = text.utf8.withContiguousStorageIfAvailable({ CombiningScalars.knownCharacter($0.baseAddress!, from: from, count: $0.count) }) ?? nil {
            return Cursor(index(utf8: end), c.offset + 1)
        }
        return Cursor(text.index(after: c.index), c.offset + 1)
    }

    func before(_ c: Cursor) -> Cursor {
        guard c.offset > 0 else { return c }
        if isOneBytePerCharacter { return Cursor(index(utf8: c.offset - 1), c.offset - 1) }
        let end = utf8Offset(c.index)
        if let start = text.utf8.withContiguousStorageIfAvailable({ CombiningScalars.knownCharacter($0.baseAddress!, before: end)?.start }) ?? nil {
            return Cursor(index(utf8: start), c.offset - 1)
        }
        return Cursor(text.index(before: c.index), c.offset - 1)
    }

    /// Every character is one byte (as many bytes as characters: none can be fewer), so a
    /// character offset is a byte offset and moving needs no grapheme breaking.
    var isOneBytePerCharacter: Bool { text.utf8.count == length }

    private static func isWordCharacter(_ ch: Character) -> Bool {
        ch.isLetter || ch.isNumber || ch == "_"
    }

    func wordStart(before c: Cursor, masked: Bool) -> Cursor {
        if masked { return start }
        var c = c
        while c.offset > 0 && !Self.isWordCharacter(text[text.index(before: c.index)]) { c = before(c) }
        while c.offset > 0 && Self.isWordCharacter(text[text.index(before: c.index)]) { c = before(c) }
        return c
    }

    func wordEnd(after c: Cursor, masked: Bool) -> Cursor {
        if masked { return end }
        var c = c
        while c.offset < length && !Self.isWordCharacter(text[c.index]) { c = after(c) }
        while c.offset < length && Self.isWordCharacter(text[c.index]) { c = after(c) }
        return c
    }

    /// Lines end at any newline character (`\n`, `\r\n`, `\r`, U+2028, U+2029…).
    /// Start of the line `c` is on; at a line start, just before the newline, so a line
    /// delete there joins the two lines.
    func lineStart(before c: Cursor, masked: Bool) -> Cursor {
        if masked { return start }
        var p = c
        if p.offset > 0 && text[text.index(before: p.index)].isNewline { return before(p) }
        while p.offset > 0 && !text[text.index(before: p.index)].isNewline { p = before(p) }
        return p
    }

    /// End of the line `c` is on; at a line end, just past the newline.
    func lineEnd(after c: Cursor, masked: Bool) -> Cursor {
        if masked { return end }
        var p = c
        if p.offset < length && text[p.index].isNewline { return after(p) }
        while p.offset < length && !text[p.index].isNewline { p = after(p) }
        return p
    }
}

/// What `delete` removes: the selection, nothing from an empty text, or a range (which may
/// be empty, at a boundary).
enum Deletion {
    case selection(Cursor, Cursor), empty, range(Cursor, Cursor)
}

extension TextBuffer {
    /// What `delete` removes: the selection if there is one, nothing from an empty text,
    /// else the unit in `direction`. Mutating (it changes nothing) so that it runs on the
    /// field's buffer where it lies: read through the form's array, the buffer is copied.
    mutating func deletion(direction: DeleteDirection, unit: TextUnit, masked: Bool) -> Deletion {
        if hasSelection { return .selection(lower, upper) }
        if length == 0 { return .empty }
        switch (direction, unit) {
        case (.backward, .character): return .range(before(head), head)
        case (.backward, .word): return .range(wordStart(before: head, masked: masked), head)
        case (.backward, .line): return .range(lineStart(before: head, masked: masked), head)
        case (.forward, .character): return .range(head, after(head))
        case (.forward, .word): return .range(head, wordEnd(after: head, masked: masked))
        case (.forward, .line): return .range(head, lineEnd(after: head, masked: masked))
        }
    }
}
