/// One change to a field's text, as `textChanged` reports it: the range `start..<end` of
/// the old text was replaced by `text`. Positions are in the client's encoding (over the
/// display for a masked field, whose `text` is then bullets).
public struct TextEdit: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var text: String
    /// What the edit removed, so it can be recounted for another encoding (`EventRecount`):
    /// never written, empty in a masked field, and not part of the edit's value (`==`).
    public var removed: String

    public init(start: Int, end: Int, text: String, removed: String = "") {
        self.start = start
        self.end = end
        self.text = text
        self.removed = removed
    }

    public static func == (a: TextEdit, b: TextEdit) -> Bool {
        a.start == b.start && a.end == b.end && a.text == b.text
    }
}

/// A selection in the client's encoding; `start == end` is a caret. `start <= end`
/// always; `backward` says the head (the end that moves, where the caret is drawn) is at
/// `start`, before the anchor. A caret is never backward.
public struct TextRange: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var backward: Bool

    public init(start: Int, end: Int, backward: Bool = false) {
        self.start = start
        self.end = end
        self.backward = backward
    }

    /// Where the head is: `start` when backward, else `end`.
    public var head: Int { backward ? start : end }
    /// Where the anchor is: `end` when backward, else `start`.
    public var anchor: Int { backward ? end : start }
}
