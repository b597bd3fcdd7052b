import FormdBytes

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
        guard let e = E.case(named: s) else {
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

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// `init(rawValue:)`, which compares the string with each case's by the library's
    /// general comparison (hundreds of instructions). A short ASCII string is equal to
    /// another such exactly when their two inline words are, so when it and every raw value
    /// are such strings, their words are compared instead.
    @inline(__always)
    static func `case`(named s: String) -> Self? {
        guard let words = ShortASCII.words(of: s) else { return Self(rawValue: s) }
        for candidate in allCases {
            guard let other = ShortASCII.words(of: candidate.rawValue) else { return Self(rawValue: s) }
            if other == words { return candidate }
        }
        return nil
    }
}
