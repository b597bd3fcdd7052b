import FormdBytes

/// The common edit: typing, deleting or replacing text where every scalar is a character
/// of its own (`SimpleScalars`: plain ASCII, most letters, CJK, emoji without modifiers).
/// There no character can join another, so nothing is walked or recounted: the change
/// is found by comparing bytes eight at a time and counting scalars. It gives exactly
/// what `replaceWalkingClusters` gives (a property test holds it to it).
extension TextBuffer {
    /// Nil (the general path) unless the inserted text and the characters either side of
    /// the edit are simple scalars, and so are the scalars beyond those neighbours (a
    /// combining or prepended scalar there would join them). The removed range may hold
    /// anything but a regional indicator: only where the unchanged ends of the edit stop
    /// inside it must the scalars be simple, so that those are character boundaries.
    mutating func replaceSimpleCharacters(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        let edit = SimpleEdit(loUTF8: utf8Offset(lo.index), hiUTF8: utf8Offset(hi.index), lo: lo.offset, hi: hi.offset, length: length)
        let found = text.utf8.withContiguousStorageIfAvailable { t in
            s.utf8.withContiguousStorageIfAvailable { n -> (CharacterChange, Int, String?)? in
                guard let tp = t.baseAddress ?? n.baseAddress, let np = n.baseAddress ?? t.baseAddress else { return nil }
                return edit.change(text: text, tp, t.count, inserting: s, np, n.count)
            } ?? nil
        } ?? nil
        guard let (change, insertedChars, inline) = found else { return nil }
        splice(lo, hi, with: s, inline: inline)
        length += insertedChars - (hi.offset - lo.offset)
        let caret = Cursor(index(utf8: edit.loUTF8 + s.utf8.count), lo.offset + insertedChars)
        anchor = caret
        head = caret
        return change
    }

    /// Puts `s` in place of `lo..<hi` in `text`, or the new text `inline` when it was
    /// built already. Typing at the end and replacing everything (most edits) skip the
    /// general splice.
    mutating func splice(_ lo: Cursor, _ hi: Cursor, with s: String, inline: String? = nil) {
        if let inline {
            text = inline
        } else if lo.offset == 0 && hi.offset == length {
            text = s
        } else if lo.offset == length {
            text += s
        } else {
            text.replaceSubrange(lo.index..<hi.index, with: s)
        }
    }
}

/// One edit's positions, and the change it makes when everything it touches is simple.
private struct SimpleEdit {
    let loUTF8: Int, hiUTF8: Int
    /// Character offsets of the edit's ends, and the text's length in characters.
    let lo: Int, hi: Int, length: Int

    /// The change of putting `s` (`n`, `m` bytes) in place of `loUTF8..<hiUTF8` of `text`
    /// (`t`, `count` bytes), the characters inserted, and the new text when it is short
    /// enough to be held inline (built from its bytes, cheaper than any splice); nil
    /// unless simple.
    func change(text: String, _ t: UnsafePointer<UInt8>, _ count: Int,
                inserting s: String, _ n: UnsafePointer<UInt8>, _ m: Int) -> (CharacterChange, Int, String?)? {
        // The window is the edit with a character each side, as on the general path: here
        // a scalar each side, a character of its own when it and the one beyond are simple.
        let before = lo > 0 ? 1 : 0, after = hi < length ? 1 : 0
        var start = loUTF8
        if before == 1 {
            start = SimpleScalars.scalarStart(t, before: loUTF8)
            guard SimpleScalars.isSimple(t, at: start),
                  start == 0 || SimpleScalars.isSimple(t, at: SimpleScalars.scalarStart(t, before: start)) else { return nil }
        }
        var end = hiUTF8
        if after == 1 {
            let (scalar, bytes) = SimpleScalars.decode(t + hiUTF8)
            end = hiUTF8 + bytes
            guard SimpleScalars.isSimple(scalar), end == count || SimpleScalars.isSimple(t, at: end) else { return nil }
        }
        // A regional indicator in the window makes the general path recount everything.
        guard let insertedChars = SimpleScalars.count(n, m), !SimpleScalars.hasRegionalIndicator(t + loUTF8, hiUTF8 - loUTF8) else {
            return nil
        }
        // The old window is t[start..<end]; the new one the same neighbours around n:
        // t[start..<loUTF8] (b bytes), n (m bytes), t[hiUTF8..<end] (a bytes).
        let b = loUTF8 - start, a = end - hiUTF8, r = hiUTF8 - loUTF8
        let oldBytes = b + r + a, newBytes = b + m + a
        // What both windows start with: the neighbour, then what the removed range and
        // n share, then (n used up) what is left of the old window against the neighbour.
        // Those bytes are simple scalars: the neighbours' and n's.
        var shared = SWAR.commonPrefix(t + loUTF8, n, count: min(r + a, m))
        if shared == m { shared += SWAR.commonPrefix(t + loUTF8 + m, t + hiUTF8, count: min(a, r + a - m)) }
        var prefix = b + shared
        // Whole scalars only (where they end is the same in both: the bytes before agree),
        // and a boundary of the old characters where it stops inside the removed range.
        while prefix < oldBytes && t[start + prefix] & 0xC0 == 0x80 { prefix -= 1 }
        if prefix > b && prefix < b + r && !SimpleScalars.isSimple(t, at: start + prefix) { return nil }
        // What both windows end with, within what the prefix left of each; the same again.
        let room = min(oldBytes, newBytes) - prefix
        var suffix = min(a, room)
        if suffix == a {
            var more = SWAR.commonSuffix(t + hiUTF8, n + m, count: min(b + r, m, room - a))
            if more == m { more += SWAR.commonSuffix(t + hiUTF8 - m, t + loUTF8, count: min(b, b + r - m, room - a - m)) }
            suffix += more
        }
        while suffix > 0 && t[start + oldBytes - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        let suffixStart = oldBytes - suffix
        if suffixStart > b && suffixStart < b + r && !SimpleScalars.isSimple(t, at: SimpleScalars.scalarStart(t, before: start + suffixStart)) {
            return nil
        }
        let prefixChars = SWAR.scalarCount(t + start, count: prefix)
        let suffixChars = SWAR.scalarCount(t + start + oldBytes - suffix, count: suffix)
        let oldChars = before + hi - lo + after, newChars = before + insertedChars + after

        // Removed: old window bytes prefix..<oldBytes - suffix, the whole text shared as it is.
        let removedCount = oldBytes - suffix - prefix
        let removed = removedCount == count ? text : ShortUTF8.string(validUTF8: t + start + prefix, count: removedCount)
        // Inserted: new window bytes prefix..<newBytes - suffix, never in the first
        // neighbour (it matched); n shared as it is when it is all of it.
        let from = prefix - b, to = newBytes - suffix - b
        let inserted: String
        if from == 0 && to == m {
            inserted = s
        } else if to <= m {
            inserted = ShortUTF8.string(validUTF8: n + from, count: to - from)
        } else {
            // Into the second neighbour: it sits after the end of n in the new window.
            inserted = String(unsafeUninitializedCapacity: to - from) { buffer in
                let fromN = max(0, m - from)
                if fromN > 0 { buffer.baseAddress!.initialize(from: n + from, count: fromN) }
                (buffer.baseAddress! + fromN).initialize(from: t + hiUTF8 + max(0, from - m), count: to - from - fromN)
                return to - from
            }
        }
        let newTextBytes = count - r + m
        var inline: String? = nil
        if newTextBytes <= ShortASCII.capacity {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { w in
                let p = w.baseAddress!.assumingMemoryBound(to: UInt8.self)
                p.initialize(from: t, count: loUTF8)
                (p + loUTF8).initialize(from: n, count: m)
                (p + loUTF8 + m).initialize(from: t + hiUTF8, count: count - hiUTF8)
            }
            inline = ShortUTF8.string(low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: newTextBytes)
        }
        let change = CharacterChange(startOffset: lo - before + prefixChars, startUTF8: start + prefix,
                                     removed: removed, removedCount: oldChars - prefixChars - suffixChars,
                                     inserted: inserted, insertedCount: newChars - prefixChars - suffixChars,
                                     windowRemoved: oldChars, windowInserted: newChars)
        return (change, insertedChars, inline)
    }
}
