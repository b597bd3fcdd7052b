/// A field's undo and redo stacks, as the field holds them: where they start in the
/// engine's history log (`UndoLog`), how many steps can be undone, and the run typing or
/// Backspace may still grow. The steps themselves live in the log, so an edit writes at
/// the log's end and reads nothing of the field's older steps.
///
/// A step records the raw replacement (byte offset, removed, inserted) and the selection
/// before it, so undo puts back both text and selection. Consecutive typing coalesces
/// into one step, and so does a run of Backspaces, as in a native text field; anything
/// else (a caret move, a paste, `setText`) ends the run.
struct EditHistory: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case typing, deleting, other }

    /// The log's number of the newest record of the undo stack, or -1.
    var undoTop = -1
    /// The log's number of the record the next redo makes first, or -1.
    var redoTop = -1
    /// The log's number of the first record of the oldest step that can be undone, or -1
    /// with none: the step a new one puts out of reach once `count` is at the limit.
    var bottom = -1
    /// Where the open run goes on: after its typed text, or where its Backspaces began.
    var runEnd = 0
    /// Steps that can be undone, at most `EngineLimits.maxUndoSteps` (the log lets an
    /// older one go at once), counting steps the budget dropped until the field reaches
    /// the limit again or the log compacts (`UndoLog.countLiveSteps`).
    var count: Int32 = 0
    /// The kind of the open run (`typing` or `deleting`), nil when no run is open.
    var run: Kind? = nil

    /// Ends the current typing or deleting run.
    mutating func close() { run = nil }

    /// Forgets every step without touching the log, as a reset previewed on a copy does;
    /// the engine's own resets go through `UndoLog.forget`, which also lets their text go.
    mutating func clear() { self = EditHistory() }

    /// A step as undo and redo apply it: a whole run, its records put together; the bytes
    /// `startUTF8..<startUTF8 + replacedUTF8` of the text become `text`.
    struct Step: Equatable, Sendable {
        var startUTF8: Int
        var replacedUTF8: Int
        var text: String
        var anchorBeforeUTF8: Int
        var headBeforeUTF8: Int
    }
}
