/// A JSON number kept as its exact source text.
///
/// Why keep the lexeme instead of converting to `Double`: JSON numbers are arbitrary
/// precision. A request id like `12345678901234567890` or an amount like `0.10` must be
/// echoed back exactly, and converting through `Double` would silently change it.
/// Conversion happens only when a caller asks (`intValue`, `doubleValue`).
///
/// Equality is by literal text: `1`, `1.0` and `1e0` are different `JSONNumber`s.
/// That is what "written back verbatim" implies; compare `doubleValue`s for numeric equality.
public struct JSONNumber: Equatable, Sendable {
    /// The exact lexeme, e.g. `-12` or `1.5e3`; the writer emits it verbatim.
    public let literal: String

    /// Creates a number from text, or nil if `literal` is not exactly one RFC 8259 number
    /// (no surrounding whitespace, no leading `+`, no leading zeros, no `NaN`/`Infinity`).
    public init?(literal: String) {
        var text = literal
        let valid = text.withUTF8 { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            if case .matched(let end) = JSONNumberGrammar.scan(base, from: 0, end: buffer.count) {
                return end == buffer.count
            }
            return false
        }
        guard valid else { return nil }
        self.literal = text
    }

    /// For a parser that has already matched the grammar; skips re-validation.
    public init(uncheckedLiteral: String) {
        self.literal = uncheckedLiteral
    }

    /// An integer; its decimal text is its literal.
    @inlinable
    public init(_ value: Int) {
        self.literal = String(value)
    }

    /// A finite double, written as Swift's shortest round-trip text (`1.0`, `1e-05`, `1e+20`),
    /// all of which are valid JSON numbers.
    ///
    /// - Precondition: `value.isFinite`. JSON has no NaN or infinity; emitting one would produce
    ///   output no peer can parse, so failing loudly at the source is the safer bug.
    @inlinable
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON cannot represent non-finite number \(value)")
        self.literal = value.description
    }

    /// The value as an `Int`, only if the literal is an integer (no fraction, no exponent)
    /// that fits. `1.0` and `1e2` give nil on purpose: a JSON-RPC id or index written with a
    /// fraction is a client bug worth reporting, not rounding. `-0` gives 0.
    public var intValue: Int? {
        var text = literal
        return text.withUTF8 { buffer -> Int? in
            var i = 0
            let count = buffer.count
            guard count > 0 else { return nil }
            let negative = buffer[0] == UInt8(ascii: "-")
            if negative { i = 1 }
            guard i < count else { return nil }
            // Accumulate toward the sign so Int.min is representable.
            var result = 0
            while i < count {
                let digit = buffer[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }  // '.', 'e', 'E' → not an integer literal
                let (shifted, o1) = result.multipliedReportingOverflow(by: 10)
                let (next, o2) = negative
                    ? shifted.subtractingReportingOverflow(Int(digit))
                    : shifted.addingReportingOverflow(Int(digit))
                if o1 || o2 { return nil }
                result = next
                i += 1
            }
            return result
        }
    }

    /// The value as the nearest `Double`, or nil if it overflows to infinity (e.g. `1e400`).
    /// Underflow rounds toward zero, as IEEE parsing does; precision loss is accepted.
    public var doubleValue: Double? {
        guard let d = Double(literal), d.isFinite else { return nil }
        return d
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The literal, so interpolating a number into a message shows what the peer sent.
    public var description: String { literal }
}
