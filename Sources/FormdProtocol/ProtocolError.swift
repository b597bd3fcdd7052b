import FormdCore

/// An error as it goes on the wire: a code and a message that names what was wrong.
public struct ProtocolError: Error, Equatable, Sendable {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public init(_ error: FormError) {
        switch error {
        case .invalidParams(let m): self.init(.invalidParams, m)
        case .unknownField: self.init(.unknownField, error.message)
        case .unknownForm: self.init(.unknownForm, error.message)
        case .limitExceeded(_, let m): self.init(.limitExceeded, m)
        }
    }

    static func invalidParams(_ message: String) -> ProtocolError { ProtocolError(.invalidParams, message) }
}
