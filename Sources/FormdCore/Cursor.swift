/// A place between two characters of a text: its index and how many characters come
/// before it. Keeping both makes the character position of the caret O(1) to report
/// and to move, instead of a recount from the start on every keystroke.
public struct Cursor: Equatable, Sendable {
    public var index: String.Index
    /// Characters (grapheme clusters) before `index`.
    public var offset: Int

    public init(_ index: String.Index, _ offset: Int) {
        self.index = index
        self.offset = offset
    }
}
