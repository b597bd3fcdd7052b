/// What a backward delete does on an already empty field.
///
/// `focusPrevious` is the one-time-code pattern: Backspace in an empty digit box steps
/// back to the previous box, as ResponsiveTextField's `handleDelete` is used for.
public enum DeleteOnEmpty: String, Sendable, CaseIterable {
    case none, focusPrevious
}
