/// What Return does in a field, after `returnPressed` is emitted.
///
/// Mirrors the chained-fields pattern of TextFieldResponder: `next` moves to the next
/// field in the chain, and when there is none the field resigns, so the last field of a
/// chain "closes the keyboard". `none` leaves the decision to the client, like
/// ResponsiveTextField's `handleReturn` closure.
public enum ReturnAction: String, Sendable, CaseIterable {
    case next, resign, submit, none
}

/// What a press of Return actually did, as reported in `returnPressed` and its result.
/// `ignored` is the case where the press had no effect at all (for example
/// `enablesReturnKeyAutomatically` on an empty field): no `returnPressed` is emitted.
public enum ReturnOutcome: String, CaseIterable, Sendable {
    case next, resign, submit, none, ignored
}

extension ReturnOutcome {
    /// The outcome of carrying out `action` (a switch: going through the raw strings
    /// compares them).
    init(_ action: ReturnAction) {
        switch action {
        case .next: self = .next
        case .resign: self = .resign
        case .submit: self = .submit
        case .none: self = .none
        }
    }
}
