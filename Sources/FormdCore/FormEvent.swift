/// Everything the engine reports. Each is emitted by one form with the next `seq`.
///
/// Texts in events are already masked for secure fields: an event never needs to be
/// filtered before it is written.
public enum FormEvent: Equatable, Sendable {
    // The large, rare cases are boxed (`indirect`), so the frequent ones are not copied
    // at the size of a whole form snapshot.
    /// The form was (re)defined; carries its whole state.
    indirect case formDefined(FormSnapshot)
    /// `reset` returned every field to its initial state; carries the whole state.
    indirect case formReset(FormSnapshot)
    indirect case fieldAdded(FieldSnapshot, index: Int)
    case fieldRemoved(field: String)
    indirect case fieldChanged(field: String, changes: FieldChanges)
    /// `text` is the whole new text, nil while the field is masked (the display is then
    /// one bullet per character) or while nothing would read it (`FormEngine.setEventTexts`);
    /// `edit` says what changed, for clients that sync incrementally; `selection` is the
    /// caret or selection after the change.
    case textChanged(field: String, text: String?, length: Int, edit: TextEdit, selection: TextRange)
    /// The caret or selection moved without a text change.
    case selectionChanged(field: String, selection: TextRange)
    case responderChanged(field: String, isFirstResponder: Bool)
    case focusChanged(from: String?, to: String?)
    /// `demand` is the field's demand after the change (nil once resolved).
    case demandChanged(field: String, demand: Demand?, outcome: DemandOutcome)
    case returnPressed(field: String, action: ReturnOutcome)
    /// `textBefore` is masked for secure fields.
    case deletePressed(field: String, textBefore: String)
    case changeRejected(field: String, reason: RejectReason)
    indirect case validityChanged(field: String, validity: Validity)
    /// Values of every field in order; masked fields are listed in `withheld` instead.
    case submitted(values: [FieldValue], withheld: [String])
    case submitFailed(errors: [FieldErrors])
}

/// An event stamped with the form that emitted it and its place in that form's stream.
public struct EventRecord: Equatable, Sendable {
    public var form: String
    public var seq: Int
    public var event: FormEvent
}
