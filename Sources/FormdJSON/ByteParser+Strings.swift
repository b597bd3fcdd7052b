import FormdBytes

/// String literals: the fast path for the common case and the escape-decoding slow path.
///
/// Why two paths: in JSON-RPC traffic almost every string (keys, method names, field
/// names, short texts) is plain text without escapes. Those become a `String` straight
/// from the input bytes (a short one written directly into its two inline words, see
/// `ShortASCII` and `ShortUTF8`: they were validated here), no intermediate buffer. Only
/// strings that actually contain a backslash are rebuilt, run by run, in a reused scratch
/// buffer.
///
/// UTF-8 is validated here, as the bytes are scanned, so errors carry the exact offset.
extension ByteParser {
    /// Parses a string literal; `pos` is at the opening quote and ends after the closing one.
    @inline(__always)
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = pos
        pos += 1
        let start = pos
        var ascii = true
        if try skipStringContent(quote: quote, ascii: &ascii) == UInt8(ascii: "\\") {
            return try parseEscapedString(contentStart: start, quote: quote)
        }
        let count = pos - start
        pos += 1
        if count <= ShortASCII.capacity {
            return ascii ? ShortASCII.string(base + start, count: count) : ShortUTF8.string(validUTF8: base + start, count: count)
        }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: count), as: UTF8.self)
    }

    /// Slow path: `pos` is at the first backslash. Copies plain runs in bulk into `scratch`
    /// and decodes escapes in between.
    mutating func parseEscapedString(contentStart: Int, quote: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = contentStart
        var ascii = true
        while true {
            let stop = try skipStringContent(quote: quote, ascii: &ascii)
            flushRun(from: runStart)
            if stop == UInt8(ascii: "\"") {
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            try decodeEscape()
            runStart = pos
        }
    }

    /// Steps over string content, validating it, up to the next quote or backslash, which
    /// is returned (and left at `pos`); clears `ascii` on a byte beyond ASCII. Throws at a
    /// control character or when the input ends first.
    @inline(__always)
    mutating func skipStringContent(quote: Int, ascii: inout Bool) throws(JSONParseError) -> UInt8 {
        while pos < end {
            skipPlainASCII()
            guard pos < end else { break }
            let b = base[pos]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return b }
            if b < 0x20 { throw controlCharacterError(b) }
            if b < 0x80 {
                pos += 1
            } else {
                ascii = false
                try skipUTF8Sequence()
            }
        }
        throw unterminatedError(quote: quote)
    }

    /// Skips plain ASCII a word at a time, stopping exactly on the first byte that needs a
    /// closer look (quote, backslash, control, non-ASCII) or within 8 bytes of the end.
    @inline(__always)
    mutating func skipPlainASCII() {
        while pos &+ 8 <= end {
            let mask = SWAR.stringAttentionMask(SWAR.load(base + pos))
            if mask != 0 {
                pos &+= SWAR.firstFlaggedByte(mask)
                return
            }
            pos &+= 8
        }
    }

    @inline(__always)
    mutating func flushRun(from runStart: Int) {
        if pos > runStart {
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: pos - runStart))
        }
    }

    /// Decodes one escape at `pos` (the backslash) into `scratch`, advancing past it.
    mutating func decodeEscape() throws(JSONParseError) {
        let backslash = pos
        guard pos + 1 < end else {
            throw JSONParseError(.syntax, at: pos, "unterminated escape sequence in string")
        }
        let c = base[pos + 1]
        pos += 2
        switch c {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            var scalar = UInt32(unit)
            if unit >= 0xD800 && unit <= 0xDBFF {
                // A high surrogate is only meaningful as the first half of a `\uXXXX\uXXXX` pair.
                guard pos + 1 < end, base[pos] == UInt8(ascii: "\\"), base[pos + 1] == UInt8(ascii: "u") else {
                    throw loneSurrogateError(unit, at: backslash)
                }
                pos += 2
                let low = try readHex4()
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw loneSurrogateError(unit, at: backslash)
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw loneSurrogateError(unit, at: backslash)
            }
            appendUTF8(scalar)
        default:
            throw JSONParseError(.syntax, at: backslash, "invalid escape sequence in string")
        }
    }

    /// Reads exactly four hex digits at `pos`.
    @inline(__always)
    mutating func readHex4() throws(JSONParseError) -> UInt16 {
        var result: UInt16 = 0
        for k in 0..<4 {
            guard pos + k < end else {
                throw JSONParseError(.syntax, at: pos + k, "truncated \\u escape in string")
            }
            let b = base[pos + k]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b &- UInt8(ascii: "A") &+ 10
            default:
                throw JSONParseError(.syntax, at: pos + k, "invalid hex digit in \\u escape")
            }
            result = result << 4 | UInt16(digit)
        }
        pos += 4
        return result
    }

    /// Encodes a Unicode scalar value (never a surrogate here) as UTF-8 into `scratch`.
    @inline(__always)
    mutating func appendUTF8(_ v: UInt32) {
        if v < 0x80 {
            scratch.append(UInt8(v))
        } else if v < 0x800 {
            scratch.append(UInt8(0xC0 | (v >> 6)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            scratch.append(UInt8(0xE0 | (v >> 12)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            scratch.append(UInt8(0xF0 | (v >> 18)))
            scratch.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    // MARK: - Errors

    func controlCharacterError(_ b: UInt8) -> JSONParseError {
        JSONParseError(.controlCharacter, at: pos, "unescaped control character 0x\(hex2(b)) in string")
    }

    func unterminatedError(quote: Int) -> JSONParseError {
        JSONParseError(.syntax, at: pos, "unterminated string starting at byte \(quote)")
    }

    func loneSurrogateError(_ unit: UInt16, at offset: Int) -> JSONParseError {
        let hex = String(unit, radix: 16, uppercase: true)
        return JSONParseError(.loneSurrogate, at: offset, "lone surrogate \\u\(hex) in string")
    }

    func hex2(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(b >> 4)], digits[Int(b & 0xF)]], as: UTF8.self)
    }
}
