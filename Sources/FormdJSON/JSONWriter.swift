/// Appends compact JSON text to a byte buffer.
///
/// Why bytes and not `String`: the daemon writes responses straight to a file descriptor,
/// so UTF-8 bytes are the end product, kept in a `ByteBuffer` where an append is a plain
/// copy with no encoding bookkeeping. `serialize` exists for tests and logs, where a
/// `String` is what you want.
///
/// Why both `write(_:)` and the raw pieces: generic values go through `write(_:)`, while
/// the hot response path can splice constant prefixes like `{"jsonrpc":"2.0","id":` with
/// `writeRaw` and skip building a `JSONValue` tree at all. The raw methods trust the
/// caller to produce valid JSON.
///
/// Output is compact (no spaces or newlines), object members in member order, numbers as
/// their literal text, strings escaped by `writeString`. A writer can be reused:
/// `removeAll()` keeps its buffer.
public struct JSONWriter: Sendable {
    @usableFromInline var buffer: ByteBuffer

    /// Reserving up front avoids the regrowth copies for typical single-line responses.
    @inlinable
    public init(reservingCapacity: Int = 256) {
        buffer = ByteBuffer(capacity: reservingCapacity)
    }

    /// The output so far (UTF-8), as a copy: for tests and cold paths. The hot ones use
    /// `count`, `withUnsafeBytes` and the other members below.
    public var bytes: [UInt8] { Array(buffer.bytes) }

    /// Bytes written so far.
    @inlinable
    public var count: Int { buffer.count }

    @inlinable
    public var isEmpty: Bool { buffer.count == 0 }

    /// Bytes the buffer holds room for.
    @inlinable
    public var capacity: Int { buffer.capacity }

    @inlinable
    public subscript(i: Int) -> UInt8 {
        get {
            precondition(i >= 0 && i < buffer.count, "JSONWriter index out of range")
            return buffer.storage.base[i]
        }
        set {
            precondition(i >= 0 && i < buffer.count, "JSONWriter index out of range")
            buffer.set(i, newValue)
        }
    }

    /// The output so far, valid only inside `body`.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(buffer.bytes))
    }

    /// Empties the writer, keeping its buffer.
    @inlinable
    public mutating func removeAll() { buffer.truncate(to: 0) }

    /// Drops everything after the first `count` bytes (a mark taken from `count`).
    @inlinable
    public mutating func truncate(to count: Int) { buffer.truncate(to: count) }

    /// Drops the first `count` bytes (already sent), keeping the rest.
    public mutating func removeFirst(_ count: Int) { buffer.removeFirst(count) }

    /// Opens `count` bytes at `offset`, moving what follows, for `body` to fill: a header
    /// put before a message once its length is known.
    @inlinable
    public mutating func insert(count n: Int, at offset: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        buffer.reserve(n)
        let at = buffer.storage.base + offset
        UnsafeMutableRawPointer(at + n).copyMemory(from: at, byteCount: buffer.count &- offset)
        body(at)
        buffer.count &+= n
    }

    /// Writes any value, compact. Recursion depth equals the value's nesting depth, which
    /// for parsed values is bounded by the parser's `maxDepth`.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            writeRaw("null")
        case .bool(let b):
            if b { writeRaw("true") } else { writeRaw("false") }
        case .number(let n):
            writeNumber(n, after: "")
        case .string(let s):
            writeString(s)
        case .array(let elements):
            if elements.isEmpty {
                writeRaw("[]")
                return
            }
            // Index loops instead of `for in`: element access stays a borrow, which spares a
            // retain/release pair per element on this hot path.
            buffer.append(UInt8(ascii: "["))
            for i in elements.indices {
                if i != 0 { buffer.append(UInt8(ascii: ",")) }
                write(elements[i])
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            let members = object.members
            if members.isEmpty {
                writeRaw("{}")
                return
            }
            for i in members.indices {
                // `{"key":` or `,"key":` in a single append.
                writeQuoted(members[i].key, prefix: i == 0 ? "{" : ",", suffix: ":")
                write(members[i].value)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// Appends constant text verbatim (no quoting, no escaping, no validation).
    @inlinable
    public mutating func writeRaw(_ ascii: StaticString) {
        buffer.append(ascii.utf8Start, count: ascii.utf8CodeUnitCount)
    }

    /// Writes `"key":` after `{` (the object's first member) or `,`, in one append: the
    /// encoders write a key per member, and one append instead of three adds up.
    @inlinable
    public mutating func writeKey(_ key: StaticString, first: Bool) {
        let n = key.utf8CodeUnitCount
        let source = key.utf8Start
        buffer.append(upTo: n &+ 4) { p in
            p[0] = first ? UInt8(ascii: "{") : UInt8(ascii: ",")
            p[1] = UInt8(ascii: "\"")
            (p + 2).initialize(from: source, count: n)
            p[n &+ 2] = UInt8(ascii: "\"")
            p[n &+ 3] = UInt8(ascii: ":")
            return n &+ 4
        }
    }

    /// Appends bytes verbatim (no quoting, no escaping, no validation), e.g. a pre-encoded fragment.
    @inlinable
    public mutating func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeRaw($0) }
    }

    /// Appends bytes verbatim; they must not be this writer's own.
    @inlinable
    public mutating func writeRaw(_ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress { buffer.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
    }

    /// Appends a copy of its own bytes in `range`, written earlier: a part that repeats
    /// (fields configured alike) is encoded once.
    @inlinable
    public mutating func writeRaw(copyOf range: Range<Int>) {
        buffer.appendCopy(of: range)
    }

    /// Appends what `other` holds.
    @inlinable
    public mutating func writeRaw(_ other: JSONWriter) {
        let source = other.buffer.bytes
        if let base = source.baseAddress { buffer.append(base, count: source.count) }
    }

    /// Reserves room for `maxCount` bytes and lets `body` write at most that many through a
    /// cursor: one capacity check for everything it writes.
    @inlinable
    public mutating func write(upTo maxCount: Int, _ body: (inout JSONCursor) -> Void) {
        var cursor = reserve(maxCount)
        body(&cursor)
        commit(cursor, reserved: maxCount)
    }

    /// `write(upTo:)` without a closure, for a message built from values a closure would
    /// capture, and so copy: reserves `maxCount` bytes and gives a cursor at the end. Write
    /// at most that many through it, touch the writer no other way meanwhile, then
    /// `commit` it with the same count.
    @inlinable
    public mutating func reserve(_ maxCount: Int) -> JSONCursor {
        buffer.reserve(maxCount)
        return JSONCursor(buffer.storage.base + buffer.count, room: maxCount)
    }

    /// Takes in what was written through a cursor from `reserve(reserved)`.
    @inlinable
    public mutating func commit(_ cursor: JSONCursor, reserved: Int) {
        let written = cursor.p - (buffer.storage.base + buffer.count)
        precondition(written >= 0 && written <= reserved, "JSONWriter: a cursor wrote past its reservation")
        buffer.count &+= written
    }

    /// Appends a decimal integer without going through `String`.
    @inlinable
    public mutating func writeInt(_ v: Int) {
        write(upTo: JSONCursor.intBound) { $0.int(v) }
    }

    /// Appends `prefix` (say `,"seq":`) then `v` in decimal, as one piece: encoders write a
    /// key before nearly every value.
    @inlinable
    public mutating func writeInt(_ v: Int, after prefix: StaticString) {
        write(upTo: prefix.utf8CodeUnitCount &+ JSONCursor.intBound) { c in
            c.raw(prefix)
            c.int(v)
        }
    }

    /// Appends `prefix` then the number's literal text, as one piece.
    @inlinable
    public mutating func writeNumber(_ n: JSONNumber, after prefix: StaticString) {
        writeNumber(n.literal, after: prefix)
    }

    @inlinable
    mutating func writeNumber(_ literal: String, after prefix: StaticString) {
        var text = literal
        text.withUTF8 { digits in
            write(upTo: prefix.utf8CodeUnitCount &+ digits.count) { c in
                c.raw(prefix)
                c.verbatim(digits)
            }
        }
    }

    /// Renders a value to a `String`; for tests, logs and non-hot paths.
    public static func serialize(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
