#if canImport(Glibc)
import Glibc
#endif
import FormdJSON
import FormdProtocol

/// The LSP base protocol's header block (`Content-Length: N\r\n\r\n`): recognising it at
/// the start of a connection, reading it, and writing it before each outgoing message.
public enum ContentLengthHeader {
    /// The longest header block read, with its closing `\r\n\r\n`; a longer one is unreadable.
    public static let maxBlockBytes = 1024

    private static let lengthName = Array("content-length".utf8)
    private static let typeName = Array("content-type".utf8)

    /// The framing a connection's first bytes choose: `contentLength` when they begin with
    /// a `Content-Length:` or `Content-Type:` header (names in any case), `ndjson` when they
    /// cannot, nil while they are too few to tell (`final`: no more will come; then `ndjson`).
    public static func framing(of start: UnsafeRawBufferPointer, final: Bool) -> Framing? {
        var undecided = false
        for name in [lengthName, typeName] {
            let field = name + [UInt8(ascii: ":")]
            let n = min(start.count, field.count)
            var matches = true
            for i in 0..<n where lowercased(start[i]) != field[i] {
                matches = false
                break
            }
            guard matches else { continue }
            if n == field.count { return .contentLength }
            undecided = true
        }
        return undecided && !final ? nil : .ndjson
    }

    /// The body length and block end of a header block written the usual way, exactly
    /// `Content-Length: N\r\n\r\n`, at the start of `bytes`; nil for any other (or an
    /// unfinished) one, which `blockEnd` and `bodyLength` then read.
    @inline(__always)
    static func plainBlock(_ bytes: UnsafeRawBufferPointer) -> (length: Int, end: Int)? {
        guard bytes.count >= 21,
              bytes.loadUnaligned(as: UInt64.self) == plainName.0,
              bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == plainName.1 else { return nil }
        var i = 16, length = 0
        while i < bytes.count && i < 34 {
            let digit = bytes[i] &- 0x30
            if digit > 9 { break }
            length = length &* 10 &+ Int(digit)
            i += 1
        }
        guard i > 16, i < 34, bytes.count - i >= 4,
              bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self) == plainEnd else { return nil }
        return (length, i + 4)
    }

    /// `Content-Length: ` as two little-endian words (`Content-`, `Length: `), and
    /// `\r\n\r\n` as one.
    private static var plainName: (UInt64, UInt64) { (0x2D74_6E65_746E_6F43, 0x203A_6874_676E_654C) }
    private static var plainEnd: UInt32 { 0x0A0D_0A0D }

    /// Where the header block at the start of `bytes` ends (past its `\r\n\r\n`), or nil
    /// when it is not complete yet.
    static func blockEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0x0D && bytes[i + 1] == 0x0A && bytes[i + 2] == 0x0D && bytes[i + 3] == 0x0A { return i + 4 }
            i += 1
        }
        return nil
    }

    /// The body length a complete header block (with its closing `\r\n\r\n`) announces, or
    /// why it cannot be read. `Content-Type` and other well-formed fields are ignored.
    static func bodyLength(of block: UnsafeRawBufferPointer) -> Result<Int, HeaderError> {
        var length: Int? = nil
        var lineStart = 0
        let fieldsEnd = block.count - 2  // each field ends with `\r\n`; the block with one more
        while lineStart < fieldsEnd {
            var lineEnd = lineStart
            while !(block[lineEnd] == 0x0D && block[lineEnd + 1] == 0x0A) { lineEnd += 1 }
            let line = UnsafeRawBufferPointer(rebasing: block[lineStart..<lineEnd])
            lineStart = lineEnd + 2
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
                return .failure(HeaderError("a header line is not `Name: value`"))
            }
            let name = line[0..<colon]
            guard name.count == lengthName.count, zip(name, lengthName).allSatisfy({ lowercased($0) == $1 }) else { continue }
            guard length == nil else { return .failure(HeaderError("Content-Length is given twice")) }
            var value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            guard !value.isEmpty, value.count <= 18, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .failure(HeaderError("Content-Length is not a whole number of bytes"))
            }
            length = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let length else { return .failure(HeaderError("no Content-Length")) }
        return .success(length)
    }

    /// Why a header block cannot be read.
    struct HeaderError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Puts the header of the message written to `w` since `start` before it.
    static func insert(before start: Int, in w: inout JSONWriter) {
        let length = UInt(w.count - start)
        var digits = 1, rest = length
        while rest >= 10 {
            digits &+= 1
            rest /= 10
        }
        w.insert(count: 20 &+ digits, at: start) { header in
            writeHeader(length, digits: digits, at: UnsafeMutableRawPointer(header))
        }
    }

    /// Writes `Content-Length: `, `length` in `digits` decimal digits, and `\r\n\r\n`.
    @inline(__always)
    private static func writeHeader(_ length: UInt, digits: Int, at header: UnsafeMutableRawPointer) {
        header.storeBytes(of: plainName.0, as: UInt64.self)
        header.storeBytes(of: plainName.1, toByteOffset: 8, as: UInt64.self)
        var value = length, at = 16 &+ digits
        repeat {
            let next = value / 10
            at &-= 1
            header.storeBytes(of: UInt8(truncatingIfNeeded: value &- next &* 10) &+ 0x30, toByteOffset: at, as: UInt8.self)
            value = next
        } while value > 0
        header.storeBytes(of: plainEnd, toByteOffset: 16 &+ digits, as: UInt32.self)
    }

    /// The end of the framed message that starts at `start` in `bytes` (as `insert` wrote it).
    static func messageEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let header = UnsafeRawBufferPointer(rebasing: bytes[start...])
        let end = blockEnd(in: header)!
        guard case .success(let length) = bodyLength(of: UnsafeRawBufferPointer(rebasing: header[..<end])) else {
            preconditionFailure("framed output has a header `insert` wrote")
        }
        return start + end + length
    }

    private static func lowercased(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }
}
