import FormdBytes

/// Edits among characters made of a scalar and combining marks (`CombiningScalars`:
/// "e\u{301}", "👍🏽", and the simple scalars between them): the window of a character each
/// side of the edit, its characters and what changed in it are found from the bytes, one
/// scalar at a time, instead of through the library's grapheme breaking. It gives exactly
/// what `replaceWalkingClusters` gives (a property test holds it to it).
extension TextBuffer {
    /// Nil (the general path) unless the window, old and new, and the scalar before it
    /// are simple scalars and marks with no mark after a possible control, and the
    /// scalar after it is simple: then the window's ends are boundaries in both texts.
    mutating func replaceCombiningCharacters(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        let edit = CombiningEdit(loUTF8: utf8Offset(lo.index), hiUTF8: utf8Offset(hi.index),
                                 before: lo.offset > 0, after: hi.offset < length)
        let found = text.utf8.withContiguousStorageIfAvailable { t in
            s.utf8.withContiguousStorageIfAvailable { n -> (start: Int, end: Int, old: String)? in
                guard let tp = t.baseAddress ?? n.baseAddress, let np = n.baseAddress ?? t.baseAddress else { return nil }
                return edit.window(tp, t.count, inserting: np, n.count)
            } ?? nil
        } ?? nil
        guard let (start, end, oldWindow) = found else { return nil }
        splice(lo, hi, with: s)
        let firstOffset = lo.offset - (edit.before ? 1 : 0)
        let oldChars = hi.offset + (edit.after ? 1 : 0) - firstOffset
        let newEnd = end + s.utf8.count - (edit.hiUTF8 - edit.loUTF8)
        let caretUTF8 = edit.loUTF8 + s.utf8.count
        let walked = text.utf8.withContiguousStorageIfAvailable { t in
            oldWindow.utf8.withContiguousStorageIfAvailable { o -> ((utf8: Int, offset: Int), CharacterChange)? in
                // One of the two windows is not empty (`window`): an empty one reads nothing.
                guard let tp = t.baseAddress ?? o.baseAddress, let op = o.baseAddress ?? t.baseAddress else { return nil }
                return edit.walk(tp, start: start, end: newEnd, caretUTF8: caretUTF8, firstOffset: firstOffset,
                                 old: op, o.count, oldChars: oldChars)
            } ?? nil
        } ?? nil
        // The library's native strings are contiguous UTF-8.
        guard let (caret, change) = walked else { fatalError("text is not contiguous UTF-8") }
        length += change.windowInserted - change.windowRemoved
        anchor = Cursor(index(utf8: caret.utf8), caret.offset)
        head = anchor
        return change
    }
}

/// One edit's positions, its window, and the change it makes there.
private struct CombiningEdit {
    let loUTF8: Int, hiUTF8: Int
    /// Whether there is a character before the edit, and after it.
    let before: Bool, after: Bool

    /// The window's bytes in `t` (`count` bytes) and its old text, if the edit that puts
    /// `n` (`m` bytes) there is one of known scalars; else nil.
    func window(_ t: UnsafePointer<UInt8>, _ count: Int, inserting n: UnsafePointer<UInt8>, _ m: Int) -> (start: Int, end: Int, old: String)? {
        let start = before ? CombiningScalars.characterStart(t, before: loUTF8, from: 0) : loUTF8
        let end = after ? CombiningScalars.characterEnd(t, from: hiUTF8, before: count) : hiUTF8
        if end == start && m == 0 { return nil }
        if end < count && !SimpleScalars.isSimple(t, at: end) { return nil }
        var previous: UInt32? = nil
        if start > 0 {
            let v = SimpleScalars.decode(t + SimpleScalars.scalarStart(t, before: start)).value
            guard SimpleScalars.isSimple(v) || CombiningScalars.isMark(v) else { return nil }
            previous = v
        }
        guard CombiningScalars.lastOfKnown(t + start, end - start, after: previous) != nil,
              let head = CombiningScalars.lastOfKnown(t + start, loUTF8 - start, after: previous),
              let middle = CombiningScalars.lastOfKnown(n, m, after: head),
              CombiningScalars.lastOfKnown(t + hiUTF8, end - hiUTF8, after: middle) != nil else { return nil }
        return (start, end, ShortUTF8.string(validUTF8: t + start, count: end - start))
    }

    /// In the new text `t`, whose window is `start..<end`: the caret (the first character
    /// boundary from `caretUTF8` on) and the change against the old window `o` (`oc`
    /// bytes, `oldChars` characters), trimmed to the characters that differ.
    func walk(_ t: UnsafePointer<UInt8>, start: Int, end: Int, caretUTF8: Int, firstOffset: Int,
              old o: UnsafePointer<UInt8>, _ oc: Int, oldChars: Int) -> ((utf8: Int, offset: Int), CharacterChange) {
        var caret: (utf8: Int, offset: Int)? = nil
        var i = start, offset = firstOffset
        while i < end {
            if caret == nil && i >= caretUTF8 { caret = (i, offset) }
            i = CombiningScalars.characterEnd(t, from: i, before: end)
            offset &+= 1
        }
        let newChars = offset - firstOffset
        let w = t + start, wc = end - start
        var oi = 0, ni = 0, p = 0
        while oi < oc && ni < wc {
            let oe = CombiningScalars.characterEnd(o, from: oi, before: oc), ne = CombiningScalars.characterEnd(w, from: ni, before: wc)
            guard oe - oi == ne - ni && SWAR.commonPrefix(o + oi, w + ni, count: oe - oi) == oe - oi else { break }
            oi = oe
            ni = ne
            p &+= 1
        }
        var oe = oc, ne = wc, q = 0
        while q < oldChars - p && q < newChars - p {
            let ob = CombiningScalars.characterStart(o, before: oe, from: 0), nb = CombiningScalars.characterStart(w, before: ne, from: 0)
            guard oe - ob == ne - nb && SWAR.commonPrefix(o + ob, w + nb, count: oe - ob) == oe - ob else { break }
            oe = ob
            ne = nb
            q &+= 1
        }
        let change = CharacterChange(startOffset: firstOffset + p, startUTF8: start + oi,
                                     removed: ShortUTF8.string(validUTF8: o + oi, count: oe - oi), removedCount: oldChars - p - q,
                                     inserted: ShortUTF8.string(validUTF8: w + ni, count: ne - ni), insertedCount: newChars - p - q,
                                     windowRemoved: oldChars, windowInserted: newChars)
        return (caret ?? (end, offset), change)
    }
}
