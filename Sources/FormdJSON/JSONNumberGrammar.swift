/// The RFC 8259 number grammar, shared by the parser and `JSONNumber(literal:)`.
///
///     number = [ "-" ] int [ frac ] [ exp ]
///     int    = "0" / ( digit1-9 *DIGIT )
///     frac   = "." 1*DIGIT
///     exp    = ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT
///
/// Why one scanner for both: a literal the parser accepts must be exactly a literal
/// `JSONNumber(literal:)` accepts, or round trips through user-built values would
/// diverge from parsed ones.
@usableFromInline
enum JSONNumberGrammar {
    /// Outcome of scanning: the end index of the longest valid number starting at `start`,
    /// or the index of the first byte that broke the grammar.
    @usableFromInline
    enum Scan {
        case matched(end: Int)
        case invalid(at: Int)
    }

    /// Scans greedily from `start` (which must be `<= end`). Stops at the first byte that
    /// cannot continue the number; whether that byte may legally follow is the caller's call.
    @usableFromInline
    static func scan(_ p: UnsafePointer<UInt8>, from start: Int, end: Int) -> Scan {
        var i = start
        if i < end && p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end else { return .invalid(at: i) }
        let first = p[i]
        if first == UInt8(ascii: "0") {
            i += 1
        } else if first >= UInt8(ascii: "1") && first <= UInt8(ascii: "9") {
            i += 1
            while i < end && isDigit(p[i]) { i += 1 }
        } else {
            return .invalid(at: i)
        }
        if i < end && p[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end && isDigit(p[i]) else { return .invalid(at: i) }
            i += 1
            while i < end && isDigit(p[i]) { i += 1 }
        }
        if i < end && (p[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < end && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < end && isDigit(p[i]) else { return .invalid(at: i) }
            i += 1
            while i < end && isDigit(p[i]) { i += 1 }
        }
        return .matched(end: i)
    }

    @inline(__always) @usableFromInline
    static func isDigit(_ b: UInt8) -> Bool {
        b &- UInt8(ascii: "0") < 10
    }
}
