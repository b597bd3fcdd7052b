import FormdBytes

/// A field's text with its selection, kept so that typing costs the same at the end of a
/// long text as of a short one.
///
/// The length in characters and the character offsets of the selection ends are kept
/// up to date on every edit by recounting only a small window around it (one character
/// each side, which is where grapheme clusters can merge or split), never the whole text.
/// Regional-indicator pairs are the one rule that reaches further; a window holding one
/// makes the edit recount everything.
public struct TextBuffer: Equatable, Sendable {
    public internal(set) var text: String
    /// Characters (grapheme clusters) in `text`.
    public internal(set) var length: Int
    /// The fixed end of the selection; `head` is the end that moves.
    public internal(set) var anchor: Cursor
    public internal(set) var head: Cursor

    /// A new text with the caret at its end.
    public init(_ text: String) {
        self.text = text
        // `count` goes through the standard library's character counting even for "", the
        // text of every field of a form defined without texts.
        length = text.isEmpty ? 0 : text.count
        anchor = Cursor(text.endIndex, length)
        head = anchor
    }

    public var start: Cursor { Cursor(text.startIndex, 0) }
    public var end: Cursor { Cursor(text.endIndex, length) }
    public var lower: Cursor { anchor.offset <= head.offset ? anchor : head }
    public var upper: Cursor { anchor.offset <= head.offset ? head : anchor }
    public var hasSelection: Bool { anchor.offset != head.offset }
    public var selectedText: Substring { text[lower.index..<upper.index] }

    public mutating func select(anchor: Cursor, head: Cursor) {
        self.anchor = anchor
        self.head = head
    }

    /// Replaces `lo..<hi` with `s` and puts the caret after it. Edits among characters of
    /// one scalar each, or of a scalar and combining marks, take shortcuts
    /// (`TextBuffer+ASCIIEdits.swift`, `TextBuffer+KnownEdits.swift`) that give what the
    /// general path would.
    public mutating func replace(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange {
        if let change = replaceShortASCII(lo, hi, with: s) { return change }
        if let change = replaceKnownCharacters(lo, hi, with: s) { return change }
        return replaceWalkingClusters(lo, hi, with: s)
    }

    /// The general path: walks the characters of a window around the edit.
    mutating func replaceWalkingClusters(_ lo: Cursor, _ hi: Cursor, with s: String) -> CharacterChange {
        let ctxStart = lo.offset > 0 ? Cursor(text.index(before: lo.index), lo.offset - 1) : lo
        let ctxEnd = hi.offset < length ? Cursor(text.index(after: hi.index), hi.offset + 1) : hi
        var oldWindow = String(text[ctxStart.index..<ctxEnd.index])
        let oldText = TextBuffer.hasRegionalIndicator(oldWindow) || TextBuffer.hasRegionalIndicator(s) ? text : nil
        let ctxStartUTF8 = utf8Offset(ctxStart.index)
        let ctxEndUTF8 = utf8Offset(ctxEnd.index)
        let loUTF8 = utf8Offset(lo.index)
        let delta = s.utf8.count - (utf8Offset(hi.index) - loUTF8)
        var oldWindowChars = ctxEnd.offset - ctxStart.offset

        text.replaceSubrange(lo.index..<hi.index, with: s)
        let caretUTF8 = loUTF8 + s.utf8.count

        if let oldText {
            return recountAll(oldText: oldText, caretUTF8: caretUTF8)
        }
        // Walk the new window character by character.
        let windowStart = index(utf8: ctxStartUTF8)
        let windowEnd = index(utf8: ctxEndUTF8 + delta)
        var caret: Cursor? = nil
        var i = windowStart
        var offset = ctxStart.offset
        while i < windowEnd {
            if caret == nil && utf8Offset(i) >= caretUTF8 { caret = Cursor(i, offset) }
            i = text.index(after: i)
            offset += 1
        }
        if i > windowEnd {
            // A cluster grew past the window: the unchanged bytes it swallowed join both
            // windows. They start on an old character boundary, so counted on their own
            // they give their old character count.
            let swallowed = String(text[windowEnd..<i])
            oldWindow += swallowed
            oldWindowChars += swallowed.count
        }
        let c = caret ?? Cursor(i, offset)
        let newWindowChars = offset - ctxStart.offset
        length += newWindowChars - oldWindowChars
        anchor = c
        head = c
        return CharacterChange.trimmed(old: oldWindow, oldCount: oldWindowChars, new: text[windowStart..<i],
                                       newCount: newWindowChars, startOffset: ctxStart.offset, startUTF8: ctxStartUTF8)
    }

    /// The rare edit whose effect on clustering may reach anywhere (regional-indicator
    /// pairs): count the whole text again and report a whole-text change, trimmed.
    private mutating func recountAll(oldText: String, caretUTF8: Int) -> CharacterChange {
        let oldLength = length
        var i = text.startIndex
        var offset = 0
        var caret: Cursor? = nil
        while i < text.endIndex {
            if caret == nil && utf8Offset(i) >= caretUTF8 { caret = Cursor(i, offset) }
            i = text.index(after: i)
            offset += 1
        }
        length = offset
        anchor = caret ?? Cursor(i, offset)
        head = anchor
        return CharacterChange.trimmed(old: oldText, oldCount: oldLength, new: text[...], newCount: length,
                                       startOffset: 0, startUTF8: 0)
    }

    /// Whether `lo..<hi` holds the very bytes of `s`. Byte counts first: they differ for
    /// nearly every edit, and comparing them is O(1).
    @inline(__always)
    func holds(_ s: String, from lo: Cursor, to hi: Cursor) -> Bool {
        let loUTF8 = utf8Offset(lo.index)
        return utf8Offset(hi.index) - loUTF8 == s.utf8.count && TextBuffer.sameBytes(text, at: loUTF8, as: s)
    }

    /// Whether `text` holds the bytes of `s` from byte `offset` on, compared eight at a time.
    private static func sameBytes(_ text: String, at offset: Int, as s: String) -> Bool {
        let count = s.utf8.count
        if count == 0 { return true }
        let same = text.utf8.withContiguousStorageIfAvailable { t in
            s.utf8.withContiguousStorageIfAvailable { n in SWAR.commonPrefix(t.baseAddress! + offset, n.baseAddress!, count: count) == count }
        } ?? nil
        return same ?? text.utf8.dropFirst(offset).starts(with: s.utf8)
    }

    /// Byte offset of `i`; O(1) on Swift's native UTF-8 strings.
    @inline(__always)
    func utf8Offset(_ i: String.Index) -> Int { text.utf8.distance(from: text.startIndex, to: i) }

    @inline(__always)
    func index(utf8 offset: Int) -> String.Index { text.utf8.index(text.startIndex, offsetBy: offset) }

    private static func hasRegionalIndicator(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { b in b.baseAddress.map { SimpleScalars.hasRegionalIndicator($0, b.count) } ?? false }
            ?? s.unicodeScalars.contains { (0x1F1E6...0x1F1FF).contains($0.value) }
    }
}
