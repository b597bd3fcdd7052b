import FormdJSON

/// A keystroke request's params read straight from its bytes, by `Envelope(keystroke:)`:
/// string values, each key at most once. One slot per key, so reading one is a jump, not a
/// comparison of strings. A slot holds where the value's bytes are in the line, not a
/// string: only the values the method reads become strings, and the slots cost nothing to
/// copy or drop. They point into the request's line, so the params live no longer than
/// its decoding.
struct ScannedParams: ParamsSource {
    var method: KeystrokeMethod
    /// The line the values are in.
    private let line: UnsafePointer<UInt8>
    /// Each key's value by `Key.rawValue`: its offset in the line (low 32 bits) and its byte
    /// count (high 32 bits), for the keys in `present`.
    private var slots: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    /// The keys given, one bit each (`Key.bit`).
    private(set) var present: UInt8 = 0
    /// The keys whose value is not all ASCII, one bit each.
    private var beyondASCII: UInt8 = 0

    /// No params yet, in `line` (of fewer than 2^32 bytes).
    @inline(__always)
    init(_ method: KeystrokeMethod, in line: UnsafePointer<UInt8>) {
        self.method = method
        self.line = line
    }

    var path: String { "\(method.name) params" }
    static func spelling(of key: KeystrokeMethod.Key) -> String { key.name }

    @inline(__always)
    func optionalString(_ key: KeystrokeMethod.Key) -> String? {
        guard present & key.bit != 0 else { return nil }
        let slot = self[key]
        return ScannedString(bytes: UnsafeBufferPointer(start: line + Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: slot)),
                                                        count: Int(truncatingIfNeeded: slot &>> 32)),
                             isASCII: beyondASCII & key.bit == 0).string(inLineFrom: line)
    }

    /// Sets `key`, not given before, to `value`, a string within the line.
    @inline(__always)
    mutating func set(_ key: KeystrokeMethod.Key, _ value: ScannedString) {
        self[key] = UInt64(truncatingIfNeeded: value.bytes.baseAddress! - line) | UInt64(truncatingIfNeeded: value.bytes.count) &<< 32
        present |= key.bit
        if !value.isASCII { beyondASCII |= key.bit }
    }

    private subscript(key: KeystrokeMethod.Key) -> UInt64 {
        @inline(__always) get {
            switch key {
            case .form: slots.0
            case .field: slots.1
            case .text: slots.2
            case .direction: slots.3
            case .unit: slots.4
            case .demand: slots.5
            }
        }
        @inline(__always) set {
            switch key {
            case .form: slots.0 = newValue
            case .field: slots.1 = newValue
            case .text: slots.2 = newValue
            case .direction: slots.3 = newValue
            case .unit: slots.4 = newValue
            case .demand: slots.5 = newValue
            }
        }
    }
}
