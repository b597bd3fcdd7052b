import FormdJSON
import FormdProtocol

/// An input line taken as far as it goes without the daemon's state: parsed, its requests
/// decoded into calls, or the reason it could not be. Decoding is pure, so the stdio
/// server does it on its burst thread while the engine works on earlier lines.
public enum DecodedLine: Sendable {
    /// Only whitespace: counted, never answered.
    case blank
    /// Longer than `maxLineBytes`; `id` is the request's when the line's start shows it.
    case tooLong(id: RequestID)
    /// Not JSON, or nested deeper than `maxDepth`: answered with `error`.
    case unreadable(id: RequestID, ProtocolError)
    /// Held in place, not boxed: a burst's lines are handled where they lie in their block,
    /// so no line costs an allocation of its own.
    case request(Envelope)
    /// A batch; never empty (an empty one is `unreadable`).
    case batch([Envelope])
    /// A `Content-Length` header block that could not be read, and why: the connection
    /// cannot find its next message, so it ends.
    case unreadableHeader(String)

    /// Decodes one line (without its `\n`; a trailing `\r` is dropped) under `limits`.
    public init(_ line: UnsafeRawBufferPointer, limits: SessionLimits) {
        var bytes = line
        if let last = bytes.last, last == UInt8(ascii: "\r") { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            self = .blank
            return
        }
        if bytes.count > limits.maxLineBytes {
            self = .tooLong(id: LeadingID.scan(UnsafeRawBufferPointer(rebasing: bytes.prefix(DecodedLine.idPrefixBytes))) ?? .null)
            return
        }
        // Most requests are plain enough to decode without building a value tree; a
        // keystroke needs not even a parser.
        if let envelope = Envelope(bytes: bytes, maxDepth: limits.maxDepth) {
            self = .request(envelope)
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: limits.maxDepth)
        } catch {
            // A limit answers the request it refused when its id can be read; a line that
            // is not JSON has no id (JSON-RPC: null).
            var id = RequestID.null
            if case .depthExceeded = error.kind { id = LeadingID.scan(bytes) ?? .null }
            self = .unreadable(id: id, DecodedLine.protocolError(for: error))
            return
        }
        guard case .array(let items) = value else {
            self = .request(Envelope(value))
            return
        }
        if items.isEmpty {
            self = .unreadable(id: .null, ProtocolError(.invalidRequest, "an empty batch is not a request"))
            return
        }
        self = .batch(items.map(Envelope.init))
    }

    /// How much of an over-long line is searched for the request's `id`.
    public static let idPrefixBytes = 512

    static func protocolError(for error: JSONParseError) -> ProtocolError {
        if case .depthExceeded(let limit) = error.kind {
            return ProtocolError(.limitExceeded, "limit maxDepth exceeded: JSON nests deeper than \(limit) levels (raise it with --max-depth)")
        }
        return ProtocolError(.parseError, "parse error: \(error.message)")
    }
}

extension MessageReader.Item {
    /// The item as a decoded line: a dropped over-long line keeps only the `id` its start shows.
    public func decoded(limits: SessionLimits) -> DecodedLine {
        switch self {
        case .message(let bytes): DecodedLine(bytes, limits: limits)
        case .tooLong(let prefix): .tooLong(id: LeadingID.scan(prefix) ?? .null)
        case .unreadableHeader(let reason): .unreadableHeader(reason)
        }
    }
}
