import FormdCore
import FormdProtocol

/// What belongs to one client rather than to the daemon: its line count, its choices from
/// `initialize`, its subscription, its framing, and whether it asked for `shutdown`.
public struct ClientState: Sendable {
    /// The 1-based number of the last line handled, counting empty ones.
    public internal(set) var lineNumber = 0
    public internal(set) var positionEncoding = PositionEncoding.character
    public internal(set) var textSync = TextSync.full
    /// Whether a failed notification gets an `error` notification (`initialize` turns it off).
    public internal(set) var errorNotifications = true
    public internal(set) var subscription = Subscription()
    /// Set once this client's `shutdown` has been answered.
    public internal(set) var isShutDown = false
    /// How this client's messages are delimited (its first bytes chose it).
    public var framing = Framing.ndjson
    /// Why a `Content-Length` header block could not be read, once one could not: the
    /// stream cannot be resynchronised, so the connection ends after the `error` notification.
    public internal(set) var unreadableHeader: String? = nil
    /// How a large `getState` or `submit` answer reaches this client; its server sets it.
    public internal(set) var answerDelivery = AnswerDelivery.whole
    /// The large `getState` or `submit` answer the last line left for the server to stream.
    var streamedAnswer: PiecewiseAnswer? = nil
    /// A `getState` or `submit` in the batch being handled was refused for `--max-line-output`
    /// (`place`): the rest of the batch is refused too.
    var batchCut = false

    public init() {}
}
