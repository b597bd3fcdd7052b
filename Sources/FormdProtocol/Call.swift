import FormdCore

/// A decoded request: either for the daemon itself or a command to one form.
public enum Call: Equatable, Sendable {
    /// `errorNotifications`: whether a failed notification gets an `error` notification
    /// (formd's extension of JSON-RPC; a strict client turns it off).
    case initialize(clientName: String?, positionEncoding: PositionEncoding?, textSync: TextSync?, errorNotifications: Bool?)
    case shutdown
    /// `subscribe` / `unsubscribe`: what of the forms' events this client receives.
    case subscribe(SubscriptionRule)
    case unsubscribe(SubscriptionRule)
    case form(String, FormCommand)
    /// A form command whose params failed a value check: the form and then `fields` are
    /// looked up first (their errors win), then the check's error is the answer.
    case refused(form: String, fields: [String], ProtocolError)
}
