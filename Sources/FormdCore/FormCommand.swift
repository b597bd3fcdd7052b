/// A command to one form: what a protocol method becomes once its params are decoded.
///
/// A `field` of nil means "the first responder", as the protocol's optional `field`.
public enum FormCommand: Equatable, Sendable {
    // The cases that carry whole field specs are boxed (`indirect`): every command is
    // moved and copied on the hot path, and unboxed they would make each one 200 bytes.
    indirect case defineForm(fields: [FieldSpec], presets: [String: FieldOptions])
    indirect case addField(FieldSpec, after: String?)
    case removeField(String)
    /// `configuration` replaces the field's preset list when given.
    indirect case configureField(String, options: FieldOptions, configuration: [String]?)
    case setText(field: String, text: String)
    case insertText(field: String?, text: String)
    case delete(field: String?, direction: DeleteDirection = .backward, unit: TextUnit = .character)
    case select(field: String?, start: Int, end: Int)
    case moveCaret(field: String?, to: CaretTarget, extend: Bool)
    case editAction(field: String?, action: EditAction, text: String?)
    case undo(field: String?)
    case redo(field: String?)
    case pressReturn(field: String?)
    case demandFocus(field: String, demand: Demand)
    case focusNext
    case focusPrevious
    case setEnabled(field: String, Bool)
    case setSecure(field: String, Bool)
    case setRevealed(field: String, Bool)
    case getState(includeSecrets: Bool)
    case validate
    case submit(includeSecrets: Bool)
    case reset

    /// Only `defineForm` may name a form that does not exist yet.
    var createsForm: Bool {
        if case .defineForm = self { return true }
        return false
    }
}

/// What a command answers, besides its events.
public enum CommandResult: Equatable, Sendable {
    /// Nothing to say but "done".
    case done
    case edit(applied: Bool, reason: RejectReason?)
    case returnPressed(ReturnOutcome)
    case demand(DemandOutcome)
    case focus(firstResponder: String?, moved: Bool)
    case selection(TextRange)
    /// `text` is what `copy`/`cut` put on the client's clipboard.
    case editAction(performed: Bool, text: String?, reason: RejectReason?)
    case state(FormSnapshot)
    case validation(valid: Bool, errors: [FieldErrors])
    /// `values` holds masked fields only when secrets were asked for; the rest are `withheld`.
    case submission(valid: Bool, values: [FieldValue], withheld: [String], errors: [FieldErrors])
}

/// A command's answer and the events it caused, in causal order.
public struct CommandOutcome: Equatable, Sendable {
    public var result: CommandResult
    public var events: [EventRecord]
}
