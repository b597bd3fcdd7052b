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
    public var bytes: [UInt8] {
        get { Array(buffer.bytes) }
        set {
            buffer.truncate(to: 0)
            newValue.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.append(base, count: $0.count) } }
        }
    }

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

    /// Writes any value, compact. Recursion depth equals the value's nesting depth, which
    /// for parsed values is bounded by the parser's `maxDepth`.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            writeRaw("null")
        case .bool(let b):
            if b { writeRaw("true") } else { writeRaw("false") }
        case .number(let n):
            writeUTF8(n.literal)
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
        appendBytes(ascii.utf8Start, count: ascii.utf8CodeUnitCount)
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

    @inlinable
    mutating func appendBytes(_ source: UnsafePointer<UInt8>, count: Int) {
        buffer.append(source, count: count)
    }

    /// Appends bytes verbatim (no quoting, no escaping, no validation), e.g. a pre-encoded fragment.
    @inlinable
    public mutating func writeRaw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.append(base, count: $0.count) } }
    }

    /// Appends what `other` holds.
    @inlinable
    public mutating func writeRaw(_ other: JSONWriter) {
        let source = other.buffer.bytes
        if let base = source.baseAddress { buffer.append(base, count: source.count) }
    }

    /// Appends a decimal integer without going through `String`.
    @inlinable
    public mutating func writeInt(_ v: Int) {
        if v >= 0 && v < 10 {
            buffer.append(UInt8(truncatingIfNeeded: v) &+ UInt8(ascii: "0"))
            return
        }
        writeInt(v, after: "")
    }

    /// Appends `prefix` (say `,"seq":`) then `v` in decimal, in one append: encoders
    /// write a key before nearly every value, and every append has a fixed cost.
    @inlinable
    public mutating func writeInt(_ v: Int, after prefix: StaticString) {
        // Digits into a 24-byte tuple on the stack (20 digits for |Int.min| plus a sign).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            let digit = raw.bindMemory(to: UInt8.self)
            var magnitude = v.magnitude
            var i = 24
            // Two digits per division, from a table of the pairs 00...99.
            let pairs = JSONWriter.digitPairs.utf8Start
            while magnitude >= 100 {
                let (q, r) = magnitude.quotientAndRemainder(dividingBy: 100)
                i &-= 2
                digit[i] = pairs[Int(r) &* 2]
                digit[i &+ 1] = pairs[Int(r) &* 2 &+ 1]
                magnitude = q
            }
            if magnitude >= 10 {
                i &-= 2
                digit[i] = pairs[Int(magnitude) &* 2]
                digit[i &+ 1] = pairs[Int(magnitude) &* 2 &+ 1]
            } else {
                i &-= 1
                digit[i] = UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0")
            }
            if v < 0 {
                i &-= 1
                digit[i] = UInt8(ascii: "-")
            }
            let n = prefix.utf8CodeUnitCount, d = 24 &- i
            let source = digit.baseAddress! + i
            buffer.append(upTo: n &+ d) { p in
                if n > 0 { p.initialize(from: prefix.utf8Start, count: n) }
                (p + n).initialize(from: source, count: d)
                return n &+ d
            }
        }
    }

    /// Appends a string's UTF-8 verbatim (used for number literals, already valid JSON).
    @inlinable
    mutating func writeUTF8(_ s: String) {
        var text = s
        text.withUTF8 { if let base = $0.baseAddress { buffer.append(base, count: $0.count) } }
    }

    @usableFromInline
    static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Appends `prefix` then the number's literal text, in one append.
    @inlinable
    public mutating func writeNumber(_ n: JSONNumber, after prefix: StaticString) {
        var literal = n.literal
        literal.withUTF8 { digits in
            let k = prefix.utf8CodeUnitCount, d = digits.count
            buffer.append(upTo: k &+ d) { p in
                if k > 0 { p.initialize(from: prefix.utf8Start, count: k) }
                if d > 0 { (p + k).initialize(from: digits.baseAddress!, count: d) }
                return k &+ d
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
