/// Why an edit was refused. The text is left as it was and `changeRejected` says why.
public enum RejectReason: String, Sendable {
    /// The field is disabled: it takes no user edits.
    case disabled
    /// The new text would be longer than the field's `maxLength`.
    case maxLength
    /// There was nothing to delete.
    case empty
}
