/// String quoting for `JSONWriter`.
///
/// Escaped: `"` and `\` (grammar), and U+0000..U+001F (RFC 8259 forbids them raw), using
/// the short forms `\b \f \n \r \t` where they exist and lowercase `\u00xx` otherwise.
/// Not escaped: `/`, DEL, U+2028/U+2029 and all other non-ASCII, which are written as raw
/// UTF-8; the output is consumed by JSON parsers, not embedded in JavaScript source.
///
/// Why scan first, then copy: text fields are mostly escape-free. The scan finds the first
/// byte needing work (a word at a time, see `SWAR`); everything before it goes out with one
/// capacity check and one memcpy, together with the surrounding punctuation. Only strings
/// that really contain escapes take the run-by-run slow path. Swift strings are always
/// valid UTF-8, so nothing needs validating on this side.
extension JSONWriter {
    /// Appends `s` as a quoted, escaped JSON string.
    @inlinable
    public mutating func writeString(_ s: String) {
        writeQuoted(s, prefix: "", suffix: "")
    }

    /// Appends `prefix` (say `,"field":`) then `s` quoted, in one append unless `s` needs
    /// escapes: encoders write a key before nearly every value.
    @inlinable
    public mutating func writeString(_ s: String, after prefix: StaticString) {
        writeQuoted(s, prefix: prefix, suffix: "")
    }

    /// Appends `prefix`, the quoted `s`, then `suffix`. Lets the object writer emit
    /// `,"key":` as one append instead of four.
    @inlinable
    mutating func writeQuoted(_ s: String, prefix: StaticString, suffix: StaticString) {
        // Native strings (always, on Linux) expose their UTF-8 in place: no copy, no retain.
        if s.utf8.withContiguousStorageIfAvailable({ appendQuoted($0, prefix: prefix, suffix: suffix) }) == nil {
            var copy = s
            copy.withUTF8 { appendQuoted($0, prefix: prefix, suffix: suffix) }
        }
    }

    @usableFromInline
    mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, prefix: StaticString, suffix: StaticString) {
        let count = utf8.count
        // `clean`: length of the escape-free prefix.
        var clean = 0
        if count >= 8, let base = utf8.baseAddress {
            while true {
                if clean &+ 8 > count {
                    // Re-check the last (overlapping) word instead of finishing byte by byte.
                    let mask = SWAR.escapeMask(SWAR.load(base + (count &- 8)))
                    clean = mask == 0 ? count : count &- 8 &+ SWAR.firstFlaggedByte(mask)
                    break
                }
                let mask = SWAR.escapeMask(SWAR.load(base + clean))
                if mask != 0 {
                    clean &+= SWAR.firstFlaggedByte(mask)
                    break
                }
                clean &+= 8
            }
        } else if count >= 4, let base = utf8.baseAddress {
            // 4...7 bytes (most keys): two overlapping 4-byte loads cover the string in one
            // test; only a string that does contain something to escape is walked bytewise.
            let head = UInt64(UnsafeRawPointer(base).loadUnaligned(as: UInt32.self))
            let tail = UInt64(UnsafeRawPointer(base + (count &- 4)).loadUnaligned(as: UInt32.self))
            if SWAR.escapeMask(head | tail &<< 32) == 0 {
                clean = count
            } else {
                while !Self.needsEscape(utf8[clean]) { clean &+= 1 }
            }
        } else {
            while clean < count && !Self.needsEscape(utf8[clean]) { clean &+= 1 }
        }
        let complete = clean == count
        let prefixCount = prefix.utf8CodeUnitCount, suffixCount = suffix.utf8CodeUnitCount
        // Worst case written here: prefix, quote, clean bytes, quote, suffix.
        buffer.append(upTo: prefixCount &+ clean &+ suffixCount &+ 2) { start in
            var p = start
            if prefixCount > 0 {
                p.initialize(from: prefix.utf8Start, count: prefixCount)
                p += prefixCount
            }
            p.initialize(to: UInt8(ascii: "\""))
            p += 1
            if clean > 0 {
                p.initialize(from: utf8.baseAddress!, count: clean)
                p += clean
            }
            if complete {
                p.initialize(to: UInt8(ascii: "\""))
                p += 1
                if suffixCount > 0 {
                    p.initialize(from: suffix.utf8Start, count: suffixCount)
                    p += suffixCount
                }
            }
            return p - start
        }
        if complete { return }
        appendEscapedTail(utf8, from: clean)
        if suffixCount > 0 { writeRaw(suffix) }
    }

    @inline(__always) @usableFromInline
    static func needsEscape(_ b: UInt8) -> Bool {
        b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
    }

    /// Slow path from the first byte needing an escape: copy clean runs in bulk, escape the
    /// rest, close the quote.
    @usableFromInline
    mutating func appendEscapedTail(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) {
        let count = utf8.count
        let base = utf8.baseAddress!
        var runStart = start
        var i = start
        while i < count {
            if i &+ 8 <= count {
                let mask = SWAR.escapeMask(SWAR.load(base + i))
                if mask == 0 {
                    i &+= 8
                    continue
                }
                i &+= SWAR.firstFlaggedByte(mask)
            }
            let b = utf8[i]
            if !Self.needsEscape(b) {
                i &+= 1
                continue
            }
            if i > runStart {
                buffer.append(base + runStart, count: i &- runStart)
            }
            appendEscape(b)
            i &+= 1
            runStart = i
        }
        if count > runStart {
            buffer.append(base + runStart, count: count &- runStart)
        }
        buffer.append(UInt8(ascii: "\""))
    }

    @usableFromInline
    mutating func appendEscape(_ b: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        switch b {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            let digits = hex.utf8Start
            buffer.append(UInt8(ascii: "u"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(digits[Int(b >> 4)])
            buffer.append(digits[Int(b & 0x0F)])
        }
    }
}
