import FormdCore

/// A decoded request: either for the daemon itself or a command to one form.
public enum Call: Equatable, Sendable {
    case initialize(clientName: String?, positionEncoding: PositionEncoding?, textSync: TextSync?)
    case shutdown
    case form(String, FormCommand)
}
