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

    /// Rewrites `lines` (whole output messages, each ended by `\n`) into `w` as base
    /// protocol messages: each body preceded by its `Content-Length` header, no newline.
    public static func frame(_ lines: UnsafeRawBufferPointer, into w: inout JSONWriter) {
        guard let base = lines.baseAddress else { return }
        var start = 0
        while start < lines.count {
            let rest = lines.count - start
            let end = memchr(base + start, 0x0A, rest).map { UnsafeRawPointer($0) - base } ?? lines.count
            w.writeInt(end - start, after: "Content-Length: ")
            w.writeRaw("\r\n\r\n")
            w.writeRaw(UnsafeRawBufferPointer(rebasing: lines[start..<end]))
            start = end + 1
        }
    }

    /// The end of the framed message that starts at `start` in `bytes` (as `frame` wrote it).
    static func messageEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let header = UnsafeRawBufferPointer(rebasing: bytes[start...])
        let end = blockEnd(in: header)!
        guard case .success(let length) = bodyLength(of: UnsafeRawBufferPointer(rebasing: header[..<end])) else {
            preconditionFailure("framed output has a header `frame` wrote")
        }
        return start + end + length
    }

    private static func lowercased(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }
}
