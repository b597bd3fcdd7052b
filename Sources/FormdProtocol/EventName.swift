import FormdCore

/// Every notification formd writes, each named once: the form events, then `error` and
/// `shutdown` (which belong to no form and reach a client whatever it subscribed to).
/// `initialize` lists them, the encoder writes them, `subscribe` checks names against
/// them, and the schema check asks the binary for them.
public enum EventName: Int, CaseIterable, Sendable {
    case formDefined, formReset, fieldAdded, fieldRemoved, fieldChanged, textChanged, selectionChanged
    case responderChanged, focusChanged, demandChanged, returnPressed, deletePressed
    case changeRejected, validityChanged, submitted, submitFailed
    case error, shutdown

    /// The name of `event`'s notification.
    @inline(__always)
    public init(_ event: FormEvent) {
        switch event {
        case .formDefined: self = .formDefined
        case .formReset: self = .formReset
        case .fieldAdded: self = .fieldAdded
        case .fieldRemoved: self = .fieldRemoved
        case .fieldChanged: self = .fieldChanged
        case .textChanged: self = .textChanged
        case .selectionChanged: self = .selectionChanged
        case .responderChanged: self = .responderChanged
        case .focusChanged: self = .focusChanged
        case .demandChanged: self = .demandChanged
        case .returnPressed: self = .returnPressed
        case .deletePressed: self = .deletePressed
        case .changeRejected: self = .changeRejected
        case .validityChanged: self = .validityChanged
        case .submitted: self = .submitted
        case .submitFailed: self = .submitFailed
        }
    }

    /// The name as a literal, which folds into the encoder's constant stores.
    @inline(__always)
    public var spelling: StaticString {
        switch self {
        case .formDefined: "formDefined"
        case .formReset: "formReset"
        case .fieldAdded: "fieldAdded"
        case .fieldRemoved: "fieldRemoved"
        case .fieldChanged: "fieldChanged"
        case .textChanged: "textChanged"
        case .selectionChanged: "selectionChanged"
        case .responderChanged: "responderChanged"
        case .focusChanged: "focusChanged"
        case .demandChanged: "demandChanged"
        case .returnPressed: "returnPressed"
        case .deletePressed: "deletePressed"
        case .changeRejected: "changeRejected"
        case .validityChanged: "validityChanged"
        case .submitted: "submitted"
        case .submitFailed: "submitFailed"
        case .error: "error"
        case .shutdown: "shutdown"
        }
    }

    public var name: String { spelling.description }

    /// The events a form emits (carrying `form` and `seq`): what `subscribe` can name.
    public static let formEvents = allCases.filter { $0 != .error && $0 != .shutdown }
}
