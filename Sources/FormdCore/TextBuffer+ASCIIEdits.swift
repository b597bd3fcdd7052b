import FormdBytes

/// The shortcuts of `replace` for plain ASCII, the commonest edits by far: where every byte
/// is a character and none can join another, nothing is walked or recounted. Each gives
/// exactly what `replaceWalkingClusters` gives (a property test holds them to it).
extension TextBuffer {
    /// The edit of a short field: a text and an insertion of plain ASCII without CR or LF
    /// (every byte a character), at most `ShortASCII.capacity` bytes after the edit. Such
    /// strings are held inline in two words, so the edit is a 128-bit splice of them; the
    /// change is trimmed as `replaceOneByteCharacters` trims it.
    mutating func replaceShortASCII(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        guard let t = ShortASCII.words(of: text), let n = ShortASCII.words(of: s) else { return nil }
        let oldBytes = ShortASCII.count(t), insertedBytes = ShortASCII.count(n)
        // Every character is a byte: offsets count bytes too.
        let loUTF8 = lo.offset, hiUTF8 = hi.offset
        let newBytes = oldBytes - (hiUTF8 - loUTF8) + insertedBytes
        guard newBytes <= ShortASCII.capacity, !TextBuffer.hasLineBreak(t), !TextBuffer.hasLineBreak(n) else { return nil }
        let old = TextBuffer.bytes(t), inserted = TextBuffer.bytes(n)
        let new = TextBuffer.prefix(old, loUTF8) | inserted &<< (8 &* loUTF8) | (old &>> (8 &* hiUTF8)) &<< (8 &* (loUTF8 + insertedBytes))
        // The windows (the edit and a neighbour each side), trimmed of what they share.
        let before = loUTF8 > 0 ? 1 : 0, after = hiUTF8 < oldBytes ? 1 : 0
        let start = loUTF8 - before
        let oldCount = before + hiUTF8 - loUTF8 + after, newCount = before + insertedBytes + after
        let oldWindow = old &>> (8 &* start), newWindow = new &>> (8 &* start)
        var p = 0
        while p < oldCount && p < newCount && TextBuffer.byte(oldWindow, p) == TextBuffer.byte(newWindow, p) { p += 1 }
        var q = 0
        while q < oldCount - p && q < newCount - p
            && TextBuffer.byte(oldWindow, oldCount - 1 - q) == TextBuffer.byte(newWindow, newCount - 1 - q) { q += 1 }
        text = TextBuffer.string(new, count: newBytes)
        length = newBytes
        let caret = Cursor(index(utf8: loUTF8 + insertedBytes), loUTF8 + insertedBytes)
        anchor = caret
        head = caret
        return CharacterChange(startOffset: start + p, startUTF8: start + p,
                               removed: TextBuffer.string(TextBuffer.prefix(oldWindow &>> (8 &* p), oldCount - p - q), count: oldCount - p - q),
                               removedCount: oldCount - p - q,
                               inserted: TextBuffer.string(TextBuffer.prefix(newWindow &>> (8 &* p), newCount - p - q), count: newCount - p - q),
                               insertedCount: newCount - p - q,
                               windowRemoved: oldCount, windowInserted: newCount)
    }

    /// An inline string's bytes as one number, byte 0 lowest, without its count and flags.
    private static func bytes(_ words: (UInt64, UInt64)) -> UInt128 {
        UInt128(words.1 & 0x00FF_FFFF_FFFF_FFFF) &<< 64 | UInt128(words.0)
    }

    /// The first `count` (<= 16) bytes of `v`. (Shifts here are all by less than 128 bits,
    /// so the masking shifts are exact and spare the checks of the smart ones.)
    private static func prefix(_ v: UInt128, _ count: Int) -> UInt128 {
        count >= 16 ? v : v & ((1 &<< (8 &* count)) - 1)
    }

    private static func byte(_ v: UInt128, _ i: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: v &>> (8 &* i))
    }

    /// The `count` bytes of `v` (zero above them) as a string.
    private static func string(_ v: UInt128, count: Int) -> String {
        ShortASCII.string(low: UInt64(truncatingIfNeeded: v), high: UInt64(truncatingIfNeeded: v &>> 64), count: count)
    }

    /// Whether an inline string's bytes hold a CR or an LF (CR LF is one character).
    private static func hasLineBreak(_ words: (UInt64, UInt64)) -> Bool {
        let (lowBytes, highBytes) = SWAR.masks(ofFirst: ShortASCII.count(words))
        func breaks(_ x: UInt64) -> UInt64 { SWAR.bytesEqual(x, 0x0D) | SWAR.bytesEqual(x, 0x0A) }
        return breaks(words.0) & lowBytes != 0 || breaks(words.1) & highBytes != 0
    }

    /// The common edit, plain ASCII typed or deleted between plain ASCII neighbours: there
    /// every byte is a character and none can join another, so nothing is walked or
    /// recounted. Nil (the general path) unless the inserted text, the removed range and
    /// the characters either side of it are single bytes below 0x80 other than CR and LF
    /// (CR LF is one character), and the bytes beyond those neighbours are ASCII too (a
    /// prepended or combining scalar there would join them).
    mutating func replaceOneByteCharacters(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        let loUTF8 = utf8Offset(lo.index), hiUTF8 = utf8Offset(hi.index)
        let removedBytes = hiUTF8 - loUTF8, insertedBytes = s.utf8.count
        guard removedBytes == hi.offset - lo.offset else { return nil }
        let before = lo.offset > 0 ? 1 : 0, after = hi.offset < length ? 1 : 0
        // The window is the edit with its neighbours, as on the general path, trimmed of
        // what the old and new windows share at either end; every byte is a character.
        let oldCount = before + removedBytes + after, newCount = before + insertedBytes + after
        let start = loUTF8 - before
        let newTextBytes = text.utf8.count - removedBytes + insertedBytes
        typealias Found = (p: Int, q: Int, removed: String, inserted: String, inline: String?)
        let found = text.utf8.withContiguousStorageIfAvailable { t -> Found? in
            func isASCII(_ i: Int) -> Bool { i < 0 || i >= t.count || t[i] < 0x80 }
            if before == 1 && !(TextBuffer.isOneByteCharacter(t[loUTF8 - 1]) && isASCII(loUTF8 - 2)) { return nil }
            if after == 1 && !(TextBuffer.isOneByteCharacter(t[hiUTF8]) && isASCII(hiUTF8 + 1)) { return nil }
            if !t[loUTF8..<hiUTF8].allSatisfy(TextBuffer.isOneByteCharacter) { return nil }
            return s.utf8.withContiguousStorageIfAvailable { n -> Found? in
                if !n.allSatisfy(TextBuffer.isOneByteCharacter) { return nil }
                // The old window is t[start ..< start + oldCount]; the new one the same
                // neighbours around n.
                func new(_ i: Int) -> UInt8 {
                    i < before ? t[loUTF8 - 1] : i < before + insertedBytes ? n[i - before] : t[hiUTF8]
                }
                var p = 0
                while p < oldCount && p < newCount && t[start + p] == new(p) { p += 1 }
                var q = 0
                while q < oldCount - p && q < newCount - p && t[start + oldCount - 1 - q] == new(newCount - 1 - q) { q += 1 }
                let removed = oldCount - p - q == 1 ? TextBuffer.asciiStrings[Int(t[start + p])]
                    : String(decoding: UnsafeBufferPointer(rebasing: t[start + p..<start + oldCount - q]), as: UTF8.self)
                let inserted = newCount - p - q == 1 ? TextBuffer.asciiStrings[Int(new(p))]
                    : String(unsafeUninitializedCapacity: newCount - p - q) { buffer in
                        for k in 0..<newCount - p - q { buffer[k] = new(p + k) }
                        return newCount - p - q
                    }
                // A new text short enough to be kept inline is built from its bytes,
                // cheaper than any splice.
                let inline = newTextBytes <= ShortASCII.capacity ? String(unsafeUninitializedCapacity: newTextBytes) { buffer in
                    var k = 0
                    for b in t[..<loUTF8] { buffer[k] = b; k += 1 }
                    for b in n { buffer[k] = b; k += 1 }
                    for b in t[hiUTF8...] { buffer[k] = b; k += 1 }
                    return k
                } : nil
                return (p, q, removed, inserted, inline)
            } ?? nil
        }
        guard let trimmed = found ?? nil else { return nil }
        let (p, q, removed, inserted, inline) = trimmed
        // Typing at the end and replacing everything (most edits) skip the general splice.
        if let inline {
            text = inline
        } else if lo.offset == 0 && hi.offset == length {
            text = s
        } else if lo.offset == length {
            text += s
        } else {
            text.replaceSubrange(lo.index..<hi.index, with: s)
        }
        length += insertedBytes - removedBytes
        let caret = Cursor(index(utf8: loUTF8 + insertedBytes), lo.offset + insertedBytes)
        anchor = caret
        head = caret
        return CharacterChange(startOffset: lo.offset - before + p, startUTF8: start + p,
                               removed: removed, removedCount: oldCount - p - q,
                               inserted: inserted, insertedCount: newCount - p - q,
                               windowRemoved: oldCount, windowInserted: newCount)
    }

    /// The one-character strings of the ASCII bytes, ready made: most edits type or delete
    /// one character, and building a string from a byte validates it.
    private static let asciiStrings = (0..<128).map { String(Unicode.Scalar(UInt8($0))) }

    private static func isOneByteCharacter(_ byte: UInt8) -> Bool {
        byte < 0x80 && byte != 0x0A && byte != 0x0D
    }
}
