/// Converting between cursors and the client's positions.
///
/// Character and UTF-8 positions cost O(1) (the cursor keeps its character offset; a
/// String.Index knows its byte offset). UTF-16 and UTF-32 positions are counted from the
/// start of the text. In a masked field every position counts over the display (one `•`
/// per character), so a position never tells anything about the hidden text.
extension TextBuffer {
    public func position(_ c: Cursor, _ encoding: PositionEncoding, masked: Bool) -> Int {
        if masked { return c.offset * encoding.bulletWidth }
        switch encoding {
        case .character: return c.offset
        case .utf8: return utf8Offset(c.index)
        case .utf16, .utf32: return encoding.units(in: text, before: c.index)
        }
    }

    public func selection(_ encoding: PositionEncoding, masked: Bool) -> TextRange {
        let start = position(lower, encoding, masked: masked)
        return TextRange(start: start, end: hasSelection ? position(upper, encoding, masked: masked) : start,
                         backward: head.offset < anchor.offset)
    }

    /// The cursor at a client's position, or an error naming the position when it lies
    /// past the end or inside a character.
    public func cursor(at position: Int, _ encoding: PositionEncoding, masked: Bool) throws(FormError) -> Cursor {
        let total = masked ? length * encoding.bulletWidth : self.position(end, encoding, masked: false)
        guard position >= 0 && position <= total else {
            throw .invalidParams("position \(position) is outside the field's text (0...\(total) in \(encoding.rawValue))")
        }
        let target: Int
        if masked || encoding == .character {
            guard position % (masked ? encoding.bulletWidth : 1) == 0 else { throw inside(position, encoding) }
            target = position / (masked ? encoding.bulletWidth : 1)
            return walk(toOffset: target)
        }
        // Walk characters until reaching or passing the position; passing means inside.
        var i = text.startIndex
        var offset = 0
        var units = 0
        while units < position {
            let next = text.index(after: i)
            units += encoding.measure(text[i..<next])
            i = next
            offset += 1
        }
        guard units == position else { throw inside(position, encoding) }
        return Cursor(i, offset)
    }

    private func inside(_ position: Int, _ encoding: PositionEncoding) -> FormError {
        .invalidParams("position \(position) falls inside a character (positions are in \(encoding.rawValue) units)")
    }

    /// The cursor at `position` in `encoding`, a character boundary this buffer gave out
    /// (an event being recounted), found from the nearest known cursor, unchecked.
    func cursor(atBoundary position: Int, _ encoding: PositionEncoding) -> Cursor {
        switch encoding {
        case .character: walk(toOffset: position)
        case .utf8: cursor(utf8: position)
        case .utf16: cursor(utf8: utf8Offset(text.utf16.index(text.startIndex, offsetBy: position)))
        case .utf32: cursor(utf8: utf8Offset(text.unicodeScalars.index(text.startIndex, offsetBy: position)))
        }
    }

    /// The cursor before character `target`, walked from the nearest known cursor.
    func walk(toOffset target: Int) -> Cursor {
        let candidates = [start, head, anchor, end]
        var c = candidates.min { abs($0.offset - target) < abs($1.offset - target) }!
        while c.offset < target { c = Cursor(text.index(after: c.index), c.offset + 1) }
        while c.offset > target { c = Cursor(text.index(before: c.index), c.offset - 1) }
        return c
    }

    /// The cursor at a byte offset from the edit history, counted from the nearest known
    /// cursor. An offset inside a character gives the boundary before it, or with
    /// `roundingUp` the one after it.
    func cursor(utf8 offset: Int, roundingUp: Bool = false) -> Cursor {
        let target = index(utf8: offset)
        let candidates = [start, head, anchor, end]
        var c = candidates.min { abs(utf8Offset($0.index) - offset) < abs(utf8Offset($1.index) - offset) }!
        while c.index < target { c = Cursor(text.index(after: c.index), c.offset + 1) }
        while c.index > target { c = Cursor(text.index(before: c.index), c.offset - 1) }
        if roundingUp && c.index < target { c = Cursor(text.index(after: c.index), c.offset + 1) }
        return c
    }

    /// A change as the client sees it: positions in its encoding over the old text. The
    /// change is consumed: its strings move into the edit.
    public func edit(_ change: consuming CharacterChange, _ encoding: PositionEncoding, masked: Bool) -> TextEdit {
        if masked {
            // A masked field's edit replaces the whole display: any narrower range would be
            // computed from the hidden characters (where they equal what was typed, where a
            // flag's halves are) and tell something about them. Only lengths are public.
            let w = encoding.bulletWidth
            let oldLength = length - change.windowInserted + change.windowRemoved
            return TextEdit(start: 0, end: oldLength * w, text: String(repeating: "•", count: length))
        }
        // Characters are what the change counts already.
        if encoding == .character {
            return TextEdit(start: change.startOffset, end: change.startOffset + change.removedCount, text: change.inserted,
                            removed: change.removed)
        }
        // The text before the change is the same in the old and the new text.
        let start = position(Cursor(index(utf8: change.startUTF8), change.startOffset), encoding, masked: false)
        return TextEdit(start: start, end: start + encoding.measure(change.removed), text: change.inserted, removed: change.removed)
    }
}
