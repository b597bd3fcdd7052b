/// Bounds on what the engine keeps. Each has a command-line flag in `formd`; exceeding
/// one is `FormError.limitExceeded` naming it, and changes nothing.
public struct EngineLimits: Equatable, Sendable {
    /// Undo steps kept per field; the oldest are dropped first.
    public var maxUndoSteps: Int
    /// Fields in one form.
    public var maxFields: Int
    /// Forms in the daemon (the default form counts).
    public var maxForms: Int
    /// Characters in one field's text.
    public var maxTextLength: Int
    /// Instructions of one compiled `pattern` or `inputFilter`.
    public var maxPatternSize: Int
    /// UTF-8 bytes of text in all forms together: every field's text and its initial text,
    /// so a preset's text counts once per field that gets it.
    public var maxTotalText: Int
    /// Bytes the undo and redo steps of all fields cost together (`HistoryBudget.swift`):
    /// never a refusal, the oldest steps are dropped first.
    public var maxUndoText: Int
    /// Fields in all forms together.
    public var maxTotalFields: Int

    public init(maxUndoSteps: Int = 100, maxFields: Int = 100_000, maxForms: Int = 1_000, maxTextLength: Int = 1_000_000,
                maxPatternSize: Int = 10_000, maxTotalText: Int = 64 << 20, maxUndoText: Int = 16 << 20,
                maxTotalFields: Int = 1_000_000) {
        self.maxUndoSteps = maxUndoSteps
        self.maxFields = maxFields
        self.maxForms = maxForms
        self.maxTextLength = maxTextLength
        self.maxPatternSize = maxPatternSize
        self.maxTotalText = maxTotalText
        self.maxUndoText = maxUndoText
        self.maxTotalFields = maxTotalFields
    }
}
