/// Why an edit or an edit action was refused. The text is left as it was.
public enum RejectReason: String, CaseIterable, Sendable {
    /// The field is disabled: it takes no user edits.
    case disabled
    /// The new text would be longer than the field's `maxLength`.
    case maxLength
    /// An inserted character does not match the field's `inputFilter`.
    case inputFilter
    /// The field is empty: there was nothing to delete.
    case empty
    /// The caret is at the start (Backspace) or end (Delete): nothing to delete there.
    case boundary
    /// The edit action is not offered by this field (see `supportedEditActions`; a masked
    /// field never offers cut or copy).
    case unsupported
    /// The action needs a selection and there is none.
    case noSelection
    /// There is no step to undo or redo.
    case nothingToUndo
    case nothingToRedo
}
