import FormdCore

/// Sees every change a command makes before any output that reveals it can be written:
/// the hook `--state` journals through. Called on the serving thread only.
public protocol CommandObserver: AnyObject, Sendable {
    /// A command on `form` succeeded and emitted `events` (a command that emits nothing
    /// changed nothing); `engine` is the state after it. Called before the command's
    /// events and response are written to any output buffer.
    func commandChanged(form: String, events: [EventRecord], engine: FormEngine)
    /// Output is about to be written: make everything seen so far as durable as
    /// configured. False when that failed; the server then stops without writing it.
    func commit(engine: FormEngine) -> Bool
    /// Whether it reads the text a `textChanged` carries (the engine leaves it out when
    /// nothing does: `FormEngine.setEventTexts`).
    var readsEventTexts: Bool { get }
}

extension CommandObserver {
    /// An observer that does not say is taken to read texts.
    public var readsEventTexts: Bool { true }
}
