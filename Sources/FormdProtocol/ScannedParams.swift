import FormdJSON

/// A keystroke request's params read straight from its bytes, by `Envelope(keystroke:)`:
/// string values, each key at most once. One slot per key, so reading one is a jump, not a
/// comparison of strings. A slot holds the value's bytes, not a string: only the values the
/// method reads become strings, and the slots cost nothing to copy or drop. They point into
/// the request's line, so the params live no longer than its decoding.
struct ScannedParams: ParamsSource {
    var method: KeystrokeMethod
    /// The value of each key, by `Key.rawValue`.
    private var values = InlineArray<6, UnsafeBufferPointer<UInt8>?>(repeating: nil)
    /// The keys whose value is not all ASCII, one bit each.
    private var beyondASCII: UInt8 = 0

    init(_ method: KeystrokeMethod) { self.method = method }

    var path: String { "\(method.name) params" }
    static func spelling(of key: KeystrokeMethod.Key) -> String { key.name }

    @inline(__always)
    func optionalString(_ key: KeystrokeMethod.Key) -> String? {
        values[key.rawValue].map { ScannedString(bytes: $0, isASCII: beyondASCII & (1 << key.rawValue) == 0).string }
    }

    /// Sets `key` to `value`, a string within the line.
    mutating func set(_ key: KeystrokeMethod.Key, _ value: ScannedString) {
        values[key.rawValue] = value.bytes
        if !value.isASCII { beyondASCII |= 1 << key.rawValue }
    }
}
