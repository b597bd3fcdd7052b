/// Where a method decoder reads a request's params from: a `ParamsReader` over a parsed
/// object, or `ScannedParams` read straight from a keystroke request's bytes. A
/// decoder written once against this gives the same call for the same params either way.
public protocol ParamsSource {
    associatedtype Key
    /// Where the params sit, for messages: "setText params".
    var path: String { get }
    /// The key as the request spells it.
    static func spelling(of key: Key) -> String
    /// The string under `key`; nil when it is absent; an error when it is not a string.
    func optionalString(_ key: Key) throws(ProtocolError) -> String?
}

extension ParamsSource {
    /// `"key" in path`, as messages name a key.
    func name(_ key: Key) -> String { "\"\(Self.spelling(of: key))\" in \(path)" }

    @inline(__always)
    public func string(_ key: Key) throws(ProtocolError) -> String {
        guard let v = try optionalString(key) else { throw .invalidParams("missing \(name(key)) (a string)") }
        return v
    }

    /// One of an enum's raw values; the message lists them.
    public func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: Key, _: E.Type) throws(ProtocolError) -> E?
    where E.RawValue == String {
        guard let s = try optionalString(key) else { return nil }
        guard let e = E(rawValue: s) else {
            let choices = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw .invalidParams("\(name(key)) must be one of \(choices), got \"\(s)\"")
        }
        return e
    }

    public func requiredEnum<E: RawRepresentable & CaseIterable>(_ key: Key, _ type: E.Type) throws(ProtocolError) -> E
    where E.RawValue == String {
        guard let e = try optionalEnum(key, type) else {
            let choices = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw .invalidParams("missing \(name(key)) (one of \(choices))")
        }
        return e
    }
}
