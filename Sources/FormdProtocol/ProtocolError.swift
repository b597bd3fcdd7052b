import FormdCore

/// An error as it goes on the wire: a code and a message that names what was wrong.
public struct ProtocolError: Error, Equatable, Sendable {
    public var code: ErrorCode
    public var message: String
    /// A value that reads but cannot be taken (a pattern that does not compile, an empty id):
    /// reported only after the form and field lookups, which win over it.
    public var isValueCheck = false

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

    /// `error`, to be reported after the form and field lookups (`isValueCheck`).
    static func valueCheck(_ error: ProtocolError) -> ProtocolError {
        var e = error
        e.isValueCheck = true
        return e
    }
}
