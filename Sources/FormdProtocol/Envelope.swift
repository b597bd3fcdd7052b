import FormdJSON

/// One JSON-RPC request or notification, with its call decoded or the reason it could
/// not be.
public struct Envelope: Equatable, Sendable {
    /// nil for a notification. An invalid request whose id cannot be read gets `.null`,
    /// as JSON-RPC 2.0 says, so it is still answered.
    public let id: RequestID?
    public let method: String?
    public let call: Result<Call, ProtocolError>

    static let keys = ["jsonrpc", "id", "method", "params"]

    /// `jsonrpc` may be omitted (shell users), but if present must be "2.0".
    public init(_ value: JSONValue) {
        guard case .object(let o) = value else {
            self.init(id: .null, method: nil, .invalidRequest("a request must be a JSON object, got \(value.typeName)"))
            return
        }
        if let dup = o.firstDuplicateKey {
            self.init(id: .null, method: nil, .invalidRequest("duplicate key \"\(dup)\" in request"))
            return
        }
        var id: RequestID? = nil
        if let raw = o["id"] {
            guard let valid = RequestID(raw) else {
                self.init(id: .null, method: nil, .invalidRequest("\"id\" must be a string, a number or null, got \(raw.typeName)"))
                return
            }
            id = valid
        }
        let invalidID = id ?? .null
        if let unknown = o.members.first(where: { !Envelope.keys.contains($0.key) })?.key {
            self.init(id: invalidID, method: nil, .invalidRequest("unknown key \"\(unknown)\" in request\(NameSuggestion.clause(for: unknown, in: Envelope.keys)); allowed: jsonrpc, id, method, params"))
            return
        }
        if let v = o["jsonrpc"], v != .string("2.0") {
            self.init(id: invalidID, method: nil, .invalidRequest("\"jsonrpc\" must be \"2.0\" when given"))
            return
        }
        guard case .string(let method)? = o["method"] else {
            let got = o["method"].map { "got \($0.typeName)" } ?? "it is missing"
            self.init(id: invalidID, method: nil, .invalidRequest("\"method\" must be a string; \(got)"))
            return
        }
        let params: JSONObject
        switch o["params"] {
        case nil: params = JSONObject()
        case .object(let p)?: params = p
        case _? where MethodRegistry.entry(named: method) == nil:
            // An unknown method is the bigger mistake, whatever params is, so it is the one reported.
            self.init(id: id, method: method, .failure(MethodRegistry.unknownMethod(method)))
            return
        case .array?:
            self.init(id: id, method: method, .failure(.invalidParams("params of \(method) must be an object (formd takes named params), got array")))
            return
        case let other?:
            self.init(id: invalidID, method: method, .invalidRequest("\"params\" must be an object, got \(other.typeName)"))
            return
        }
        self.init(id: id, method: method, Result { () throws(ProtocolError) in try MethodRegistry.decode(method: method, params: params) })
    }

    /// A request decoded straight from its bytes, without a value tree, when it is plain
    /// enough: a keystroke (`init(keystroke:)`), else any plain request
    /// (`init(plainRequest:)`), else a `defineForm` (`init(defineForm:)`). Nil for any
    /// other line, which `JSONParser` and `init(_:)` decode. Every way ends in the method's
    /// `MethodRegistry` entry or builds what it builds, so they give the same envelope for a
    /// line each of them takes.
    @inline(__always)
    public init?(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        guard let envelope = Envelope(keystroke: bytes, maxDepth: maxDepth) ?? Envelope(plainRequest: bytes, maxDepth: maxDepth)
                ?? Envelope(defineForm: bytes, maxDepth: maxDepth) else {
            return nil
        }
        self = envelope
    }

    private static let plainKeys: [StaticString] = ["jsonrpc", "id", "method", "params"]

    /// A request in its plainest shape, decoded straight from its bytes with no value tree:
    /// one object of an optional `jsonrpc` "2.0", an optional `id` (string, number or
    /// null), a string `method` and an optional `params` object of scalars, each at most
    /// once and nothing else. Nil for any other line, which `JSONParser` and `init(_:)`
    /// then decode or refuse; a line both accept gets the same envelope from each (the
    /// same `MethodRegistry` entry on the same params). `params` nests one level below the
    /// request, so with `maxDepth` under 2 every line takes the long way and its limit.
    public init?(plainRequest bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        guard maxDepth >= 2 else { return nil }
        var params = JSONObject()
        guard let (id, method) = Envelope.members(of: bytes, params: { r, _ in
            guard let object = r.objectOfScalars() else { return false }
            params = object
            return true
        }) else { return nil }
        self.init(id: id, method: method, Result { () throws(ProtocolError) in try MethodRegistry.decode(method: method, params: params) })
    }

    /// The members of a request read straight from its bytes, each at most once: an optional
    /// `jsonrpc` "2.0", an optional `id` (string, number or null) and a string `method`,
    /// returned; `params` is left to `readParams`, the reader at its value, with the method
    /// when it came first. Nil for any other member or shape, or when `readParams` declines.
    @inline(__always)
    static func members(of bytes: UnsafeRawBufferPointer,
                        params readParams: (inout JSONObjectReader, String?) -> Bool) -> (id: RequestID?, method: String)? {
        guard var r = JSONObjectReader(bytes) else { return nil }
        var seen: UInt8 = 0
        var id: RequestID? = nil
        var method: String? = nil
        while let key = r.nextKey(in: Envelope.plainKeys) {
            guard seen & (1 << key) == 0 else { return nil }
            seen |= 1 << key
            switch key {
            case 0:
                guard r.string() == "2.0" else { return nil }
            case 1:
                guard let value = r.scalar(), let valid = RequestID(value) else { return nil }
                id = valid
            case 2:
                guard let name = r.string() else { return nil }
                method = name
            default:
                guard readParams(&r, method) else { return nil }
            }
        }
        guard r.isAtEnd(), let method else { return nil }
        return (id, method)
    }

    init(id: RequestID?, method: String?, _ call: Result<Call, ProtocolError>) {
        self.id = id
        self.method = method
        self.call = call
    }
}

extension Result where Failure == ProtocolError {
    static func invalidRequest(_ message: String) -> Result { .failure(ProtocolError(.invalidRequest, message)) }
}
