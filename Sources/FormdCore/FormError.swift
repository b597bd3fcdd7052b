/// Why a command was not carried out. A command that throws has changed nothing.
///
/// Each case maps to one JSON-RPC error code in the protocol layer; the associated text
/// is the message a person reads, so it names what was wrong.
public enum FormError: Error, Equatable, Sendable {
    /// -32602: a parameter is missing, of the wrong type, unknown or has a bad value.
    case invalidParams(String)
    /// -32001: the named field does not exist in the form.
    case unknownField(field: String, form: String)
    /// -32002: the named form does not exist.
    case unknownForm(String)
    /// -32003: a configured limit would be exceeded.
    case limitExceeded(limit: String, message: String)

    public var message: String {
        switch self {
        case .invalidParams(let m): m
        case .unknownField(let field, let form): "unknown field \(quoted(field)) in form \(quoted(form))"
        case .unknownForm(let form): "unknown form \(quoted(form)); create it with defineForm"
        case .limitExceeded(_, let m): m
        }
    }
}
