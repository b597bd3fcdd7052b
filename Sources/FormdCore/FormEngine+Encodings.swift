/// Serving one command's events to clients that count positions differently.
///
/// The engine computes positions in the encoding of the command that caused them. A daemon
/// with several clients runs a command once, in its sender's encoding, and recounts its
/// events for each other encoding (`EventRecount`).
extension FormEngine {
    /// What recounting the events of `command` on form `formName` needs from before it
    /// runs: for a configuration command, the field it names.
    public func recountBasis(for command: FormCommand, on formName: String) -> RecountBasis {
        let id: String
        switch command {
        case .configureField(let f, _, _), .setSecure(let f, _), .setRevealed(let f, _), .setEnabled(let f, _): id = f
        default: return RecountBasis()
        }
        guard let form = form(formName), let i = try? form.index(of: id) else { return RecountBasis() }
        return RecountBasis(configured: (id, form.fields[i].buffer, form.fields[i].attributes.masksText))
    }

    /// Recounts events of a command on form `formName`, emitted in `from`, for `to`: call
    /// it right after the command, with the engine as the command left it. The command's
    /// `textChanged` events must carry their texts (`setEventTexts`).
    public func recount(on formName: String, from: PositionEncoding, to: PositionEncoding, basis: RecountBasis) -> EventRecount {
        EventRecount(form: form(formName), basis: basis, from: from, to: to)
    }

    /// Whether the `textChanged` events of the commands from now on carry their field's
    /// text (a masked field's never do); on until a server that knows nothing will read it
    /// turns it off. Without it, an event does not share its text's storage with the field,
    /// so the next edit splices the text in place instead of copying it. A server sets it
    /// before each command, from that command's readers: inlined, an unchanged setting
    /// costs a compare.
    @inlinable
    public mutating func setEventTexts(_ on: Bool) {
        if on != eventTexts { changeEventTexts(on) }
    }

    /// `setEventTexts`, changed: every form takes it.
    @usableFromInline
    mutating func changeEventTexts(_ on: Bool) {
        eventTexts = on
        for i in storage.indices { storage[i].eventTexts.on = on }
    }
}

extension FormEvent {
    /// True when the event holds a position (a selection, an edit range, or field states
    /// that carry selections) in some encoding: it depends on the receiving client's.
    public var carriesPositions: Bool {
        switch self {
        case .formDefined, .formReset, .fieldAdded, .textChanged, .selectionChanged:
            return true
        case .fieldChanged(_, let changes):
            // Switching masking reports the selection in the encodings where it moved.
            return changes.display != nil
        case .fieldRemoved, .responderChanged, .focusChanged, .demandChanged, .returnPressed,
             .deletePressed, .changeRejected, .validityChanged, .submitted, .submitFailed:
            return false
        }
    }

    /// The field the event is about; nil for events about the whole form (`formDefined`,
    /// `formReset`, `focusChanged`, `submitted`, `submitFailed`).
    public var fieldID: String? {
        switch self {
        case .fieldAdded(let f, _): return f.id
        case .fieldRemoved(let f), .fieldChanged(let f, _), .textChanged(let f, _, _, _, _),
             .selectionChanged(let f, _), .responderChanged(let f, _), .demandChanged(let f, _, _),
             .returnPressed(let f, _), .deletePressed(let f, _), .changeRejected(let f, _),
             .validityChanged(let f, _):
            return f
        case .formDefined, .formReset, .focusChanged, .submitted, .submitFailed:
            return nil
        }
    }
}
