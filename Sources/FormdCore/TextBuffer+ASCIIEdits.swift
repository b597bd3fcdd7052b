import FormdBytes

/// The shortcut of `replace` for short plain ASCII, the commonest edit by far: where every byte
/// is a character and none can join another, nothing is walked or recounted. It gives
/// exactly what `replaceWalkingClusters` gives (a property test holds it to it).
extension TextBuffer {
    /// The edit of a short field: a text and an insertion of plain ASCII without CR or LF
    /// (every byte a character), at most `ShortASCII.capacity` bytes after the edit. Such
    /// strings are held inline in two words, so the edit is a 128-bit splice of them; the
    /// change is trimmed as `replaceSimpleCharacters` trims it.
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
}
