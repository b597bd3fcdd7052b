import FormdBytes

/// The shortcut of `replace` for short plain ASCII, the commonest edit by far: where every byte
/// is a character and none can join another, nothing is walked or recounted. It gives
/// exactly what `replaceWalkingClusters` gives (a property test holds it to it).
extension TextBuffer {
    /// The edit of a short field: a text and an insertion of plain ASCII without CR or LF
    /// (every byte a character), at most `ShortASCII.capacity` bytes after the edit. Such
    /// strings are held inline in two words, so the edit is a 128-bit splice of them; the
    /// change is trimmed as `replaceKnownCharacters` trims it.
    mutating func replaceShortASCII(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange? {
        guard let t = TextBuffer.inlineASCIIWords(of: text), let n = TextBuffer.inlineASCIIWords(of: s) else { return nil }
        let oldBytes = ShortASCII.count(t), insertedBytes = ShortASCII.count(n)
        // Every character is a byte: offsets count bytes too.
        let loUTF8 = lo.offset, hiUTF8 = hi.offset
        let newBytes = oldBytes - (hiUTF8 - loUTF8) + insertedBytes
        guard newBytes <= ShortASCII.capacity, !TextBuffer.hasLineBreak(t), !TextBuffer.hasLineBreak(n) else { return nil }
        let old = TextBuffer.bytes(t), inserted = TextBuffer.bytes(n)
        let new = TextBuffer.prefix(old, loUTF8) | inserted &<< (8 &* loUTF8) | (old &>> (8 &* hiUTF8)) &<< (8 &* (loUTF8 + insertedBytes))
        let before = loUTF8 > 0 ? 1 : 0, after = hiUTF8 < oldBytes ? 1 : 0
        if after == 0 && (loUTF8 == hiUTF8 || insertedBytes == 0) {
            // Typing or deleting at the end: the windows share the character before and
            // nothing else, so the change is the edit.
            let removedCount = hiUTF8 - loUTF8
            text = TextBuffer.string(new, count: newBytes)
            length = newBytes
            anchor = Cursor(index(utf8: newBytes), newBytes)
            head = anchor
            return CharacterChange(startOffset: loUTF8, startUTF8: loUTF8,
                                   removed: removedCount == 0 ? "" : TextBuffer.string(old &>> (8 &* loUTF8), count: removedCount),
                                   removedCount: removedCount, inserted: s, insertedCount: insertedBytes,
                                   windowRemoved: before + removedCount, windowInserted: before + insertedBytes)
        }
        // The windows (the edit and a neighbour each side), trimmed of what they share.
        let start = loUTF8 - before
        let oldCount = before + hiUTF8 - loUTF8 + after, newCount = before + insertedBytes + after
        let oldWindow = TextBuffer.prefix(old &>> (8 &* start), oldCount), newWindow = TextBuffer.prefix(new &>> (8 &* start), newCount)
        // Bytes the windows share at their starts, then at their ends (tops aligned; both
        // hold at most 15 bytes), found a word at a time.
        let p = min(TextBuffer.sameLowBytes(oldWindow, newWindow), oldCount, newCount)
        let q = min(TextBuffer.sameHighBytes(oldWindow &<< (8 &* (16 - oldCount)), newWindow &<< (8 &* (16 - newCount))),
                    oldCount - p, newCount - p)
        text = TextBuffer.string(new, count: newBytes)
        length = newBytes
        let caret = Cursor(index(utf8: loUTF8 + insertedBytes), loUTF8 + insertedBytes)
        anchor = caret
        head = caret
        let removedCount = oldCount - p - q, insertedCount = newCount - p - q
        // Typing removes nothing and a delete inserts nothing: those strings are empty.
        return CharacterChange(startOffset: start + p, startUTF8: start + p,
                               removed: removedCount == 0 ? "" : TextBuffer.string(TextBuffer.prefix(oldWindow &>> (8 &* p), removedCount), count: removedCount),
                               removedCount: removedCount,
                               inserted: insertedCount == 0 ? "" : TextBuffer.string(TextBuffer.prefix(newWindow &>> (8 &* p), insertedCount), count: insertedCount),
                               insertedCount: insertedCount,
                               windowRemoved: oldCount, windowInserted: newCount)
    }

    /// The two words of an inline ASCII string; nil for any other. Texts and typed strings
    /// of at most 15 bytes are made inline (by the decoder and by every edit), so unlike
    /// `ShortASCII.words(of:)` a string held out of line is not looked at: most are long.
    @inline(__always)
    static func inlineASCIIWords(of s: String) -> (UInt64, UInt64)? {
        guard let words = ShortUTF8.inlineWords(of: s), words.1 &>> 60 == 0xE else { return nil }
        return words
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

    /// How many of the lowest bytes of `a` and `b` are equal (16 when all are).
    private static func sameLowBytes(_ a: UInt128, _ b: UInt128) -> Int {
        (a ^ b).trailingZeroBitCount &>> 3
    }

    /// How many of the highest bytes of `a` and `b` are equal (16 when all are).
    private static func sameHighBytes(_ a: UInt128, _ b: UInt128) -> Int {
        (a ^ b).leadingZeroBitCount &>> 3
    }

    /// The `count` bytes of `v` (zero above them) as a string.
    private static func string(_ v: UInt128, count: Int) -> String {
        ShortASCII.string(low: UInt64(truncatingIfNeeded: v), high: UInt64(truncatingIfNeeded: v &>> 64), count: count)
    }

    /// Whether an inline string's bytes hold a CR or an LF (CR LF is one character). Its
    /// bytes past its count are zero, so only the count's byte is masked off.
    private static func hasLineBreak(_ words: (UInt64, UInt64)) -> Bool {
        func breaks(_ x: UInt64) -> UInt64 { SWAR.bytesEqual(x, 0x0D) | SWAR.bytesEqual(x, 0x0A) }
        return breaks(words.0) | breaks(words.1 & 0x00FF_FFFF_FFFF_FFFF) != 0
    }
}
