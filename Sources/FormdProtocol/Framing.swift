/// How a connection's messages are delimited, chosen by its first bytes and reported in
/// `initialize`'s result.
public enum Framing: String, Sendable {
    /// One JSON value per line, ended by `\n`.
    case ndjson
    /// The LSP base protocol: a `Content-Length` header block, then that many bytes of body.
    case contentLength
}
