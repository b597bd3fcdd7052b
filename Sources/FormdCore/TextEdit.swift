/// One change to a field's text, as `textChanged` reports it: the range `start..<end` of
/// the old text was replaced by `text`. Positions are in the client's encoding (over the
/// display for a masked field, whose `text` is then bullets).
public struct TextEdit: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var text: String

    public init(start: Int, end: Int, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// A selection in the client's encoding; `start == end` is a caret.
public struct TextRange: Equatable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}
