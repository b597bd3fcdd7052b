import FormdJSON
import FormdProtocol

/// Finds a request's `id` in the start of a line that cannot be parsed whole (too long or
/// nested too deep), so a limit error can be answered to the request that caused it
/// instead of to `id: null`.
///
/// The bytes must begin (after whitespace) with an object, and `"id"` must be one of its
/// own members whose value (a string, a number or null) ends inside the bytes; anything
/// else — a batch, an `id` only inside `params`, a value cut off, malformed JSON before
/// it — finds nothing. The scan never recurses and looks at each byte at most twice.
public enum LeadingID {
    public static func scan(_ bytes: UnsafeRawBufferPointer) -> RequestID? {
        var s = Scanner(bytes: bytes)
        s.skipWhitespace()
        guard s.take(UInt8(ascii: "{")) else { return nil }
        while true {
            s.skipWhitespace()
            guard let keyRange = s.skipString() else { return nil }
            s.skipWhitespace()
            guard s.take(UInt8(ascii: ":")) else { return nil }
            s.skipWhitespace()
            let valueStart = s.pos
            guard s.skipValue() else { return nil }
            if s.isKeyID(keyRange) {
                return requestID(UnsafeRawBufferPointer(rebasing: bytes[valueStart..<s.pos]))
            }
            s.skipWhitespace()
            guard s.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private static func requestID(_ value: UnsafeRawBufferPointer) -> RequestID? {
        switch try? JSONParser.parse(value, maxDepth: 1) {
        case .number(let n)?: return .number(n)
        case .string(let s)?: return .string(s)
        case .null?: return .null
        default: return nil
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var pos = 0

        var atEnd: Bool { pos >= bytes.count }

        mutating func skipWhitespace() {
            while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x09 || bytes[pos] == 0x0A || bytes[pos] == 0x0D { pos += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard pos < bytes.count, bytes[pos] == byte else { return false }
            pos += 1
            return true
        }

        /// A string from its opening quote; the range includes both quotes.
        mutating func skipString() -> Range<Int>? {
            let start = pos
            guard take(UInt8(ascii: "\"")) else { return nil }
            while pos < bytes.count {
                switch bytes[pos] {
                case UInt8(ascii: "\""):
                    pos += 1
                    return start..<pos
                case UInt8(ascii: "\\"):
                    pos += 2
                default:
                    pos += 1
                }
            }
            return nil
        }

        /// Any value, complete within the bytes. Containers are skipped by counting
        /// brackets outside strings; their contents are not checked.
        mutating func skipValue() -> Bool {
            guard pos < bytes.count else { return false }
            switch bytes[pos] {
            case UInt8(ascii: "\""):
                return skipString() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while pos < bytes.count {
                    switch bytes[pos] {
                    case UInt8(ascii: "\""):
                        guard skipString() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { pos += 1; return true }
                    default:
                        break
                    }
                    pos += 1
                }
                return false
            default:
                // A number or a literal: it is complete only if something follows it.
                let start = pos
                while pos < bytes.count, isScalarByte(bytes[pos]) { pos += 1 }
                return pos > start && pos < bytes.count
            }
        }

        private func isScalarByte(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
        }

        /// The key is exactly `"id"` (escapes such as `"\u0069d"` are decoded).
        func isKeyID(_ range: Range<Int>) -> Bool {
            let key = UnsafeRawBufferPointer(rebasing: bytes[range])
            if key.elementsEqual("\"id\"".utf8) { return true }
            guard key.contains(UInt8(ascii: "\\")), case .string("id")? = try? JSONParser.parse(key, maxDepth: 1) else { return false }
            return true
        }
    }
}
