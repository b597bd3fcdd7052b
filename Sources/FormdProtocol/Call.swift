import FormdCore

/// A decoded request: either for the daemon itself or a command to one form.
public enum Call: Equatable, Sendable {
    case initialize(clientName: String?, positionEncoding: PositionEncoding?, textSync: TextSync?)
    case shutdown
    /// `subscribe` / `unsubscribe`: what of the forms' events this client receives.
    case subscribe(SubscriptionRule)
    case unsubscribe(SubscriptionRule)
    case form(String, FormCommand)
}
