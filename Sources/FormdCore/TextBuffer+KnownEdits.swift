import FormdBytes

/// The common edit: typing, deleting or replacing text among known scalars, the simple ones
/// (`SimpleScalars`: plain ASCII, most letters, CJK, emoji without modifiers), each a
/// character of its own, and the marks that join them (`CombiningScalars`: "e\u{301}",
/// "👍🏽"). There a character is a scalar and the marks after it, so the window (a
/// character each side of the edit) and the inserted characters are found one scalar at a
/// time, and the change by comparing bytes eight at a time: nothing is walked through the
/// library's grapheme breaking, and nothing outside the window is read but the inserted
/// text and the removed range (for regional indicators). It gives exactly what
/// `replaceWalkingClusters` gives (a property test holds it to it).
extension TextBuffer {
    /// Nil (the general path) unless the characters either side of the edit, the scalars
    /// beyond them and the inserted text are known scalars, with no mark after a possible
    /// control. The removed range may hold anything but a regional indicator: only where
    /// the unchanged ends of the change stop inside it must its scalars be known, so that
    /// those are character boundaries.
    mutating func replaceKnownCharacters(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        // (Not `??`: its autoclosure copies the change.)
        if let change = replaceAtEnd(lo, hi, with: s) { return change }
        if let change = replaceWhole(lo, hi, with: s) { return change }
        let edit = KnownEdit(loUTF8: utf8Offset(lo.index), hiUTF8: utf8Offset(hi.index), lo: lo.offset, hi: hi.offset, length: length)
        let found = text.utf8.withContiguousStorageIfAvailable { t in
            s.utf8.withContiguousStorageIfAvailable { n -> (CharacterChange, Int, String?)? in
                // An empty string may have no storage: it lends the other's, never read.
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

    /// Typing or Backspace at the end after a known character, nearly every edit: nothing
    /// follows, so the change is the edit itself (`KnownEdit.change` finds the same), made
    /// without its windows. Nil (the windows) for any other edit, where a mark typed would
    /// join the character before, or where what is deleted holds a regional indicator.
    @inline(__always)
    mutating func replaceAtEnd(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        guard hi.offset == length && lo.offset > 0 && (lo.offset == hi.offset) != s.isEmpty else { return nil }
        let loUTF8 = utf8Offset(lo.index), count = text.utf8.count, m = s.utf8.count
        // The characters typed (or -1 where not known), and the new text when short.
        let found = text.utf8.withContiguousStorageIfAvailable { t -> (Int, String?) in
            guard let (_, last) = CombiningScalars.knownCharacter(t.baseAddress!, before: loUTF8) else { return (-1, nil) }
            if m == 0 {
                if SimpleScalars.hasRegionalIndicator(t.baseAddress! + loUTF8, count &- loUTF8) { return (-1, nil) }
                return (0, loUTF8 <= ShortASCII.capacity ? ShortUTF8.string(validUTF8: t.baseAddress!, count: loUTF8) : nil)
            }
            return s.utf8.withContiguousStorageIfAvailable { n -> (Int, String?) in
                guard !CombiningScalars.isMark(SimpleScalars.decode(n.baseAddress!).value),
                      let typed = CombiningScalars.characters(n.baseAddress!, m, after: last, ascii: SimpleScalars.isFlaggedASCII(s)) else { return (-1, nil) }
                return (typed, count &+ m <= ShortASCII.capacity
                        ? KnownEdit.inline(t.baseAddress!, count, replacing: count, count, with: n.baseAddress!, m) : nil)
            } ?? (-1, nil)
        } ?? (-1, nil)
        let (typed, short) = found
        if typed < 0 { return nil }
        let removedCount = length &- lo.offset
        let removed = m > 0 ? "" : text.utf8.withContiguousStorageIfAvailable { ShortUTF8.string(validUTF8: $0.baseAddress! + loUTF8, count: count &- loUTF8) } ?? String(text[lo.index...])
        if let short { text = short } else if m > 0 { text += s } else { text = String(text[..<lo.index]) }
        length = length &- removedCount &+ typed
        anchor = Cursor(text.endIndex, length)
        head = anchor
        return CharacterChange(startOffset: lo.offset, startUTF8: loUTF8, removed: removed, removedCount: removedCount,
                               inserted: s, insertedCount: typed, windowRemoved: 1 &+ removedCount, windowInserted: 1 &+ typed)
    }

    /// A whole text replaced by one whose first and last bytes differ from its own (most
    /// `setText`s): no character is kept at either end, so the change is the edit, whatever
    /// the old text holds (regional indicators too: nothing lies beyond it). Nil for any
    /// other edit, or where the new text's characters are not known.
    @inline(__always)
    mutating func replaceWhole(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        guard lo.offset == 0 && hi.offset == length && length > 0 && !s.isEmpty else { return nil }
        let count = text.utf8.count, m = s.utf8.count
        let found = text.utf8.withContiguousStorageIfAvailable { t -> (Int, String?) in
            s.utf8.withContiguousStorageIfAvailable { n -> (Int, String?) in
                let t = t.baseAddress!, n = n.baseAddress!
                guard t[0] != n[0] && t[count &- 1] != n[m &- 1],
                      let chars = CombiningScalars.characters(n, m, after: nil, ascii: SimpleScalars.isFlaggedASCII(s)) else { return (-1, nil) }
                // A short new text is held inline, as every edit's is.
                return (chars, m <= ShortASCII.capacity && ShortUTF8.inlineWords(of: s) == nil ? ShortUTF8.string(validUTF8: n, count: m) : nil)
            } ?? (-1, nil)
        } ?? (-1, nil)
        let (chars, short) = found
        if chars < 0 { return nil }
        let change = CharacterChange(startOffset: 0, startUTF8: 0, removed: text, removedCount: length, inserted: s,
                                     insertedCount: chars, windowRemoved: length, windowInserted: chars)
        text = short ?? s
        length = chars
        anchor = Cursor(text.endIndex, chars)
        head = anchor
        return change
    }

    /// Puts `s` in place of `lo..<hi` in `text`, or the new text `inline` when it was
    /// built already. Typing at the end, deleting at the end and replacing everything
    /// (most edits) skip the general splice.
    mutating func splice(_ lo: Cursor, _ hi: Cursor, with s: String, inline: String?) {
        if let inline {
            text = inline
        } else if lo.offset == 0 && hi.offset == length {
            text = s
        } else if lo.offset == length {
            text += s
        } else if hi.offset == length && s.isEmpty {
            // The text's storage is nearly always shared (with the last event, the undo
            // log): a copy of what stays costs less than `removeSubrange`, which copies too.
            text = String(text[..<lo.index])
        } else {
            text.replaceSubrange(lo.index..<hi.index, with: s)
        }
    }
}

/// One edit's positions, and the change it makes when everything it touches is known.
private struct KnownEdit {
    let loUTF8: Int, hiUTF8: Int
    /// Character offsets of the edit's ends, and the text's length in characters.
    let lo: Int, hi: Int, length: Int

    /// The change of putting `s` (`n`, `m` bytes) in place of `loUTF8..<hiUTF8` of `text`
    /// (`t`, `count` bytes), the characters inserted, and the new text when it is short
    /// enough to be held inline (built from its bytes, cheaper than any splice); nil
    /// unless known.
    func change(text: String, _ t: UnsafePointer<UInt8>, _ count: Int,
                inserting s: String, _ n: UnsafePointer<UInt8>, _ m: Int) -> (CharacterChange, Int, String?)? {
        // The window is the edit with a character each side, as on the general path.
        // The character before: `last` is its last scalar, which marks at the start of
        // `s` join; the character after.
        let before = lo > 0 ? 1 : 0, after = hi < length ? 1 : 0
        var start = loUTF8, last: UInt32? = nil
        if before == 1 {
            guard let (j, v) = CombiningScalars.knownCharacter(t, before: loUTF8) else { return nil }
            start = j
            last = v
        }
        var end = hiUTF8
        if after == 1 {
            guard let e = CombiningScalars.knownCharacter(t, from: hiUTF8, count: count) else { return nil }
            end = e
        }
        // A regional indicator removed may pair those beyond the window differently; when
        // the whole text is replaced there is nothing beyond it (a long `setText` is not
        // searched).
        guard let insertedChars = CombiningScalars.characters(n, m, after: last, ascii: SimpleScalars.isFlaggedASCII(s)),
              (before == 0 && after == 0) || !SimpleScalars.hasRegionalIndicator(t + loUTF8, hiUTF8 - loUTF8) else { return nil }
        let newTextBytes = count - (hiUTF8 - loUTF8) + m
        let inline = newTextBytes <= ShortASCII.capacity ? Self.inline(t, count, replacing: loUTF8, hiUTF8, with: n, m) : nil
        if after == 0 && (m == 0 || (hiUTF8 == loUTF8 && !CombiningScalars.isMark(SimpleScalars.decode(n).value))) {
            // Typing or deleting at the end, where nothing joins the character before: the
            // change is the edit.
            let removed = hiUTF8 == loUTF8 ? "" : loUTF8 == 0 ? text : ShortUTF8.string(validUTF8: t + loUTF8, count: hiUTF8 - loUTF8)
            let change = CharacterChange(startOffset: lo, startUTF8: loUTF8, removed: removed, removedCount: hi - lo,
                                         inserted: s, insertedCount: insertedChars,
                                         windowRemoved: before + hi - lo, windowInserted: before + insertedChars)
            return (change, insertedChars, inline)
        }
        // The old window is t[start..<end]; the new one the same neighbours around n:
        // t[start..<loUTF8] (b bytes), n (m bytes), t[hiUTF8..<end] (a bytes).
        let b = loUTF8 - start, a = end - hiUTF8, r = hiUTF8 - loUTF8
        let oldBytes = b + r + a, newBytes = b + m + a
        let window = NewWindow(t: t, start: start, hiUTF8: hiUTF8, n: n, b: b, m: m)
        // What both windows start with: the neighbour, then what the removed range and
        // n share, then (n used up) what is left of the old window against the neighbour.
        var shared = SWAR.commonPrefix(t + loUTF8, n, count: min(r + a, m))
        if shared == m { shared += SWAR.commonPrefix(t + loUTF8 + m, t + hiUTF8, count: min(a, r + a - m)) }
        var prefix = b + shared
        // Back to a character start of both: a scalar start (the bytes before agree, so
        // where scalars start does too), not a mark in the new window, and in the old one
        // not a mark (which there joins the character before it) nor an unknown scalar.
        while prefix < oldBytes && t[start + prefix] & 0xC0 == 0x80 { prefix -= 1 }
        while prefix > 0 && prefix < newBytes && CombiningScalars.isMark(window.scalar(at: prefix)) { prefix = window.scalarStart(before: prefix) }
        if prefix > 0 && prefix < oldBytes {
            let v = SimpleScalars.decode(t + start + prefix).value
            if CombiningScalars.isMark(v) {
                // After a control a mark starts a character; `mayBeControl` is not exact.
                if CombiningScalars.mayBeControl(SimpleScalars.decode(t + SimpleScalars.scalarStart(t, before: start + prefix)).value) { return nil }
                var j = SimpleScalars.scalarStart(t, before: start + prefix)
                while j > start && CombiningScalars.isMark(SimpleScalars.decode(t + j).value) { j = SimpleScalars.scalarStart(t, before: j) }
                prefix = j - start
            } else if !SimpleScalars.isSimple(v) {
                return nil
            }
        }
        // What both windows end with, within what the prefix left of each: the same bytes
        // in both, known as the new window's are. From a scalar start that is not a mark;
        // in the old window the scalar before it must be known, so that it starts a character.
        let room = min(oldBytes, newBytes) - prefix
        var suffix = min(a, room)
        if suffix == a {
            var more = SWAR.commonSuffix(t + hiUTF8, n + m, count: min(min(b + r, m), room - a))
            if more == m { more += SWAR.commonSuffix(t + hiUTF8 - m, t + loUTF8, count: min(min(b, b + r - m), room - a - m)) }
            suffix += more
        }
        while suffix > 0 && t[start + oldBytes - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        while suffix > 0 {
            let at = start + oldBytes - suffix
            let (v, length) = SimpleScalars.decode(t + at)
            if !CombiningScalars.isMark(v) { break }
            // A mark joins the character before it in both windows, except at the text's
            // start and after a control, where it starts one (`mayBeControl` is not exact).
            if (start == 0 && newBytes == suffix) || at == 0
                || CombiningScalars.mayBeControl(SimpleScalars.decode(t + SimpleScalars.scalarStart(t, before: at)).value) { return nil }
            suffix -= length
        }
        let suffixStart = oldBytes - suffix
        if suffix > 0 && suffixStart > b && suffixStart <= b + r
            && !CombiningScalars.isKnown(SimpleScalars.decode(t + SimpleScalars.scalarStart(t, before: start + suffixStart)).value) {
            return nil
        }
        let prefixChars = CombiningScalars.characters(known: t + start, count: prefix)
        let suffixChars = CombiningScalars.characters(known: t + start + suffixStart, count: suffix)
        let oldChars = before + hi - lo + after, newChars = before + insertedChars + after

        // Removed: old window bytes prefix..<suffixStart, the whole text shared as it is.
        let removedCount = suffixStart - prefix
        let removed = removedCount == count ? text : ShortUTF8.string(validUTF8: t + start + prefix, count: removedCount)
        // Inserted: new window bytes prefix..<newBytes - suffix; n shared as it is when it
        // is all of it.
        let to = newBytes - suffix
        let inserted = prefix == b && to == b + m ? s : window.string(from: prefix, to: to)
        let change = CharacterChange(startOffset: lo - before + prefixChars, startUTF8: start + prefix,
                                     removed: removed, removedCount: oldChars - prefixChars - suffixChars,
                                     inserted: inserted, insertedCount: newChars - prefixChars - suffixChars,
                                     windowRemoved: oldChars, windowInserted: newChars)
        return (change, insertedChars, inline)
    }

    /// The new text, `t` (`count` bytes) with `n` (`m` bytes) in place of `lo..<hi`, at
    /// most `ShortASCII.capacity` bytes, held inline: its three pieces loaded as words and
    /// spliced as one 128-bit number, cheaper than any splice of strings.
    static func inline(_ t: UnsafePointer<UInt8>, _ count: Int, replacing lo: Int, _ hi: Int,
                       with n: UnsafePointer<UInt8>, _ m: Int) -> String {
        func bytes(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt128 {
            let (low, high) = SWAR.loadPadded(p, count: count)
            return UInt128(high) &<< 64 | UInt128(low)
        }
        let v = bytes(t, lo) | bytes(n, m) &<< (8 &* lo) | bytes(t + hi, count - hi) &<< (8 &* (lo + m))
        return ShortUTF8.string(low: UInt64(truncatingIfNeeded: v), high: UInt64(truncatingIfNeeded: v &>> 64), count: count - (hi - lo) + m)
    }
}

/// The new window, read where its bytes lie: the old text's before `hiUTF8`'s neighbour
/// (`b` bytes from `start`), the inserted text (`m` bytes), the old text's from `hiUTF8`.
/// Scalars never straddle the three.
private struct NewWindow {
    let t: UnsafePointer<UInt8>, start: Int, hiUTF8: Int
    let n: UnsafePointer<UInt8>, b: Int, m: Int

    /// Where byte `k` of the window lies.
    @inline(__always)
    func byte(_ k: Int) -> UnsafePointer<UInt8> {
        k < b ? t + start + k : k < b + m ? n + (k - b) : t + hiUTF8 + (k - b - m)
    }

    @inline(__always)
    func scalar(at k: Int) -> UInt32 { SimpleScalars.decode(byte(k)).value }

    /// Where the scalar ending at `k` (> 0) starts.
    @inline(__always)
    func scalarStart(before k: Int) -> Int {
        if k <= b { return SimpleScalars.scalarStart(t + start, before: k) }
        if k <= b + m { return b + SimpleScalars.scalarStart(n, before: k - b) }
        return b + m + SimpleScalars.scalarStart(t + hiUTF8, before: k - b - m)
    }

    /// Bytes `from..<to` of the window as a string (valid UTF-8: they are whole scalars).
    func string(from: Int, to: Int) -> String {
        let count = to - from
        if count <= ShortASCII.capacity {
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { copy(from: from, to: to, into: $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            return ShortUTF8.string(low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: count)
        }
        return String(unsafeUninitializedCapacity: count) { buffer in
            copy(from: from, to: to, into: buffer.baseAddress!)
            return count
        }
    }

    /// Copies bytes `from..<to` of the window to `p`, a piece at a time.
    private func copy(from: Int, to: Int, into p: UnsafeMutablePointer<UInt8>) {
        var k = from
        while k < to {
            let e = min(to, k < b ? b : k < b + m ? b + m : to)
            (p + (k - from)).initialize(from: byte(k), count: e - k)
            k = e
        }
    }
}
