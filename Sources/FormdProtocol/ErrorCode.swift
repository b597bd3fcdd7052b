/// JSON-RPC 2.0 error codes, and formd's own in the server range.
public enum ErrorCode: Int, Sendable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case unknownField = -32001
    case unknownForm = -32002
    case limitExceeded = -32003
    /// `--listen`: a connection from another user, refused.
    case notPermitted = -32004
}
