/// What `textChanged` carries, chosen per client in `initialize` like LSP's
/// `TextDocumentSyncKind`.
public enum TextSync: String, Sendable, CaseIterable {
    /// The whole text (when visible) and display with every change, plus the edit. Simple
    /// for renderers; costs O(length) per keystroke on the wire.
    case full
    /// Only the edit (range and inserted text), the length and the selection: O(1) per
    /// keystroke however long the text.
    case incremental
}
