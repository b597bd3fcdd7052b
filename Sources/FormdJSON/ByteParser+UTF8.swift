/// UTF-8 well-formedness for bytes inside string literals (RFC 3629, Table 3-7 of Unicode).
///
/// Why validate here instead of letting `String(decoding:)` repair: repair would silently
/// turn a peer's bad bytes into U+FFFD and the daemon would then act on text the client
/// never sent. RFC 8259 requires UTF-8, so malformed input is rejected with its offset.
///
///     C2..DF  80..BF
///     E0      A0..BF  80..BF          (no overlongs)
///     E1..EC  80..BF  80..BF
///     ED      80..9F  80..BF          (no UTF-16 surrogates)
///     EE..EF  80..BF  80..BF
///     F0      90..BF  80..BF  80..BF  (no overlongs)
///     F1..F3  80..BF  80..BF  80..BF
///     F4      80..8F  80..BF  80..BF  (nothing above U+10FFFF)
///
/// Everything else (80..C1 as a lead byte, F5..FF) is invalid.
extension ByteParser {
    /// `pos` is at a byte >= 0x80; validates one multi-byte sequence and advances past it.
    @inline(__always)
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = base[pos]
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondHigh = 0x9F
        case 0xF0: length = 4; secondLow = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondHigh = 0x8F
        default:
            throw JSONParseError(.invalidUTF8, at: pos, "invalid UTF-8 lead byte 0x\(hex2(lead)) in string")
        }
        guard pos + 1 < end, base[pos + 1] >= secondLow, base[pos + 1] <= secondHigh else {
            throw invalidSequence()
        }
        var k = 2
        while k < length {
            guard pos + k < end, base[pos + k] & 0xC0 == 0x80 else { throw invalidSequence() }
            k += 1
        }
        pos += length
    }

    func invalidSequence() -> JSONParseError {
        JSONParseError(.invalidUTF8, at: pos, "invalid or truncated UTF-8 sequence in string")
    }
}
