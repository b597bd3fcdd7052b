import FormdJSON

/// The framing shared by the journal and the snapshot: one record per line,
///
///     <crc32 of the JSON, 8 lowercase hex digits> <compact JSON object>\n
///
/// A compact JSON text never holds a raw newline (the writer escapes control characters),
/// so a line is a record. A record counts only when its newline is there, its checksum
/// matches and its JSON parses to an object: a write cut short by a crash, a zero-filled
/// block after a power loss or a flipped bit all fail one of those.
public enum RecordCodec {
    /// Where a scan stopped before the end of its input, and why.
    public struct Damage: Equatable, Sendable, CustomStringConvertible {
        /// Byte offset of the first record that does not verify.
        public var offset: Int
        public var reason: String
        public var description: String { "at byte \(offset): \(reason)" }
    }

    /// The records of a buffer that verify, in order, up to the first one that does not.
    public struct Scan: Sendable {
        public var records: [JSONObject] = []
        /// Bytes before the first damaged record: the part that may be kept.
        public var validLength = 0
        public var damage: Damage? = nil
    }

    /// Appends one framed record to `out`.
    public static func append(_ record: JSONValue, to out: inout JSONWriter) {
        let start = out.count
        out.writeRaw("00000000 ")
        out.write(record)
        let crc = out.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(start + 9)...])) }
        writeChecksum(crc, at: start, in: &out)
        out.writeRaw("\n")
    }

    /// Puts `crc` in 8 lowercase hex digits over the placeholder at `start`.
    private static func writeChecksum(_ crc: UInt32, at start: Int, in out: inout JSONWriter) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for i in 0..<8 { out[start + i] = hex[Int((crc >> (28 - 4 * UInt32(i))) & 0xF)] }
    }

    /// One framed record, the bytes `append` writes, handed to `sink` a piece at a time (each
    /// member of the object, and each element of a member that is an array, handed over once
    /// `pieceBytes` wait), so a record of a large form is never held whole. A first pass over
    /// the same pieces computes the checksum the record starts with. Returns its size.
    @discardableResult
    static func stream(_ record: JSONObject, pieceBytes: Int = 1 << 16,
                       to sink: (UnsafeRawBufferPointer) throws(Posix.Failure) -> Void) throws(Posix.Failure) -> Int {
        var crc: UInt32 = 0
        forEachPiece(of: record, pieceBytes: pieceBytes) { crc = CRC32.update(crc, $0) }
        var head = JSONWriter(reservingCapacity: 16)
        head.writeRaw("00000000 ")
        writeChecksum(crc, at: 0, in: &head)
        var failure: Posix.Failure? = nil
        var size = 0
        let sinkPiece = { (piece: UnsafeRawBufferPointer) in
            guard failure == nil else { return }
            do throws(Posix.Failure) { try sink(piece) } catch { failure = error }
            size += piece.count
        }
        head.withUnsafeBytes(sinkPiece)
        forEachPiece(of: record, pieceBytes: pieceBytes, sinkPiece)
        withUnsafeBytes(of: UInt8(ascii: "\n"), sinkPiece)
        if let failure { throw failure }
        return size
    }

    /// Hands `body` the JSON of `record` in pieces of about `pieceBytes` (`stream`).
    private static func forEachPiece(of record: JSONObject, pieceBytes: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        var w = JSONWriter(reservingCapacity: pieceBytes + 4096)
        func handOver(atLeast bytes: Int) {
            guard w.count >= bytes else { return }
            w.withUnsafeBytes(body)
            w.removeAll()
        }
        for (i, member) in record.members.enumerated() {
            w.writeRaw(i == 0 ? "{" : ",")
            w.writeString(member.key)
            w.writeRaw(":")
            if case .array(let elements) = member.value, !elements.isEmpty {
                for k in elements.indices {
                    w.writeRaw(k == 0 ? "[" : ",")
                    w.write(elements[k])
                    handOver(atLeast: pieceBytes)
                }
                w.writeRaw("]")
            } else {
                w.write(member.value)
            }
            handOver(atLeast: pieceBytes)
        }
        w.writeRaw(record.members.isEmpty ? "{}" : "}")
        handOver(atLeast: 1)
    }

    /// One framed record, as bytes.
    public static func encode(_ record: JSONValue) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 256)
        append(record, to: &w)
        return w.bytes
    }

    /// Reads records until the end of `bytes` or the first record that does not verify.
    public static func scan(_ bytes: [UInt8], maxDepth: Int) -> Scan {
        var scan = Scan()
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                switch record(in: raw, at: offset, maxDepth: maxDepth) {
                case .success(let (object, next)):
                    scan.records.append(object)
                    offset = next
                    scan.validLength = next
                case .failure(let reason):
                    scan.damage = Damage(offset: offset, reason: reason.message)
                    return
                }
            }
        }
        return scan
    }

    struct Reason: Error { var message: String }

    private static func record(in raw: UnsafeRawBufferPointer, at offset: Int, maxDepth: Int) -> Result<(JSONObject, Int), Reason> {
        guard let newline = raw[offset...].firstIndex(of: UInt8(ascii: "\n")) else {
            return .failure(Reason(message: "a record without its end of line (\(raw.count - offset) bytes; a write cut short)"))
        }
        guard newline - offset >= 11, raw[offset + 8] == UInt8(ascii: " ") else {
            return .failure(Reason(message: "not a record (no checksum)"))
        }
        var stored: UInt32 = 0
        for i in offset..<(offset + 8) {
            let c = raw[i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            default: return .failure(Reason(message: "not a record (bad checksum digits)"))
            }
            stored = stored << 4 | UInt32(digit)
        }
        let payload = UnsafeRawBufferPointer(rebasing: raw[(offset + 9)..<newline])
        let actual = CRC32.checksum(payload)
        guard actual == stored else {
            return .failure(Reason(message: "checksum mismatch (stored \(hex(stored)), computed \(hex(actual)))"))
        }
        guard case .object(let object)? = try? JSONParser.parse(payload, maxDepth: maxDepth) else {
            return .failure(Reason(message: "checksum matches but the record is not a JSON object"))
        }
        return .success((object, newline + 1))
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}
