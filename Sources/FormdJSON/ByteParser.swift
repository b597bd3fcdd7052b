/// The parsing engine: one forward pass over raw bytes, building `JSONValue`s directly.
///
/// Why iterative rather than recursive descent: nesting depth is attacker-controlled
/// (`[[[[...` from a peer), and `maxDepth` is caller-controlled. An explicit stack keeps
/// the parser's own stack usage constant whatever either of them says, so no input and no
/// limit can make *parsing* overflow the thread's stack (Swift concurrency threads have
/// small stacks). The depth check happens before a container is opened, so a hostile
/// `[[[[...` costs `maxDepth` steps, not its length.
///
/// Why the shared scratch stacks (`values`, `members`): elements of every open container
/// are pushed onto one of two growable stacks; when a container closes, its elements are
/// moved out once into an exactly-sized array. That costs one allocation per container
/// instead of the repeated regrowth of per-container arrays, and the outermost container
/// takes the scratch storage over without any copy.
struct ByteParser {
    let base: UnsafePointer<UInt8>
    let end: Int
    var pos: Int = 0
    let maxDepth: Int
    /// Reused buffer for strings that contain escapes (the only strings that need rewriting).
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.base = base
        self.end = count
        self.maxDepth = maxDepth
    }

    /// Parses one value surrounded by optional whitespace, and nothing else.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if pos == end {
            throw JSONParseError(.empty, at: pos, end == 0 ? "empty input" : "input contains only whitespace")
        }
        let value = try parseValue()
        skipWhitespace()
        if pos != end {
            let what = base[pos] == 0 ? "unexpected NUL byte after the JSON value" : "unexpected content after the JSON value"
            throw JSONParseError(.trailingContent, at: pos, what)
        }
        return value
    }

    // MARK: - Value tree

    /// Container bookkeeping: `frames` (see `FrameStack`) holds, per open container, the index in `values`
    /// (arrays, stored as-is) or in `members` (objects, stored bit-inverted, so negative)
    /// where its elements begin. An object's pending member sits on `members` with a
    /// `.null` placeholder value until its value is complete.
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: FrameStack.inlineCapacity) {
            (storage) throws(JSONParseError) -> JSONValue in
            var frames = FrameStack(storage: storage)
            return try parseValue(frames: &frames)
        }
    }

    mutating func parseValue(frames: inout FrameStack) throws(JSONParseError) -> JSONValue {
        var values: [JSONValue] = []
        var members: [JSONMember] = []
        var value: JSONValue

        nextValue: while true {
            skipWhitespace()
            guard pos < end else {
                throw JSONParseError(.syntax, at: pos, "unexpected end of input, expected a value")
            }
            switch base[pos] {
            case UInt8(ascii: "{"):
                if frames.count >= maxDepth { throw depthError() }
                pos += 1
                skipWhitespace()
                if pos < end && base[pos] == UInt8(ascii: "}") {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    // Sized for typical requests so the scratch stack never regrows.
                    if members.capacity == 0 { members.reserveCapacity(16) }
                    frames.push(~members.count)
                    try beginMember(&members)
                    continue nextValue
                }
            case UInt8(ascii: "["):
                if frames.count >= maxDepth { throw depthError() }
                pos += 1
                skipWhitespace()
                if pos < end && base[pos] == UInt8(ascii: "]") {
                    pos += 1
                    value = .array([])
                } else {
                    if values.capacity == 0 { values.reserveCapacity(16) }
                    frames.push(values.count)
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "t"):
                try expectKeyword("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectKeyword("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectKeyword("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            case 0:
                throw JSONParseError(.syntax, at: pos, "unexpected NUL byte, expected a value")
            default:
                throw JSONParseError(.syntax, at: pos, "expected a value")
            }

            // `value` is complete: attach it to the innermost open container, closing
            // containers for as long as their closing bracket follows.
            while let frame = frames.top {
                skipWhitespace()
                if frame < 0 {
                    members[members.count &- 1].value = value
                    if pos < end {
                        let b = base[pos]
                        if b == UInt8(ascii: ",") {
                            pos += 1
                            skipWhitespace()
                            try beginMember(&members)
                            continue nextValue
                        }
                        if b == UInt8(ascii: "}") {
                            pos += 1
                            value = .object(JSONObject(Self.take(from: &members, start: ~frame, filler: JSONMember(key: "", value: .null))))
                            frames.pop()
                            continue
                        }
                    }
                    throw JSONParseError(.syntax, at: pos, "expected ',' or '}' after object member")
                } else {
                    values.append(value)
                    if pos < end {
                        let b = base[pos]
                        if b == UInt8(ascii: ",") {
                            pos += 1
                            continue nextValue
                        }
                        if b == UInt8(ascii: "]") {
                            pos += 1
                            value = .array(Self.take(from: &values, start: frame, filler: .null))
                            frames.pop()
                            continue
                        }
                    }
                    throw JSONParseError(.syntax, at: pos, "expected ',' or ']' after array element")
                }
            }
            return value
        }
    }

    /// Removes `stack[start...]` and returns it as its own exactly-sized array.
    ///
    /// When the container owns the whole stack (always true for the outermost one) the
    /// storage is handed over as is. Otherwise the elements are *moved* out (no retain on the
    /// way out, no release on the way down) and the vacated slots refilled with a trivial
    /// `filler` so the stack can shrink without touching the moved values again.
    @inline(__always)
    static func take<T>(from stack: inout [T], start: Int, filler: T) -> [T] {
        if start == 0 {
            var taken: [T] = []
            swap(&taken, &stack)
            return taken
        }
        let n = stack.count &- start
        let taken = stack.withUnsafeMutableBufferPointer { slots -> [T] in
            let source = slots.baseAddress! + start
            let taken = [T](unsafeUninitializedCapacity: n) { buffer, initialized in
                buffer.baseAddress!.moveInitialize(from: source, count: n)
                initialized = n
            }
            source.initialize(repeating: filler, count: n)
            return taken
        }
        stack.removeLast(n)
        return taken
    }

    /// Parses `"key" :` (leading whitespace already skipped) and pushes the member with a
    /// placeholder value.
    @inline(__always)
    mutating func beginMember(_ members: inout [JSONMember]) throws(JSONParseError) {
        guard pos < end && base[pos] == UInt8(ascii: "\"") else {
            throw JSONParseError(.syntax, at: pos, "expected '\"' to begin an object key")
        }
        let key = try parseString()
        skipWhitespace()
        guard pos < end && base[pos] == UInt8(ascii: ":") else {
            throw JSONParseError(.syntax, at: pos, "expected ':' after object key")
        }
        pos += 1
        members.append(JSONMember(key: key, value: .null))
    }

    func depthError() -> JSONParseError {
        JSONParseError(.depthExceeded(limit: maxDepth), at: pos, "nesting exceeds the maximum depth of \(maxDepth)")
    }

    // MARK: - Scalars

    /// RFC 8259 whitespace only: space, tab, line feed, carriage return.
    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            let b = base[pos]
            guard b <= 0x20, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
            pos += 1
        }
    }

    /// Matches `true`, `false` or `null` exactly; reports the first byte that differs.
    @inline(__always)
    mutating func expectKeyword(_ word: StaticString) throws(JSONParseError) {
        let length = word.utf8CodeUnitCount
        let expected = word.utf8Start
        for k in 0..<length {
            guard pos + k < end, base[pos + k] == expected[k] else {
                throw JSONParseError(.syntax, at: pos + k, "invalid literal, expected '\(word)'")
            }
        }
        pos += length
    }

    /// Matches the number grammar and keeps the lexeme. Whatever byte follows is judged by
    /// the caller (so `01` fails as "expected ',' ..." at the `1`, `1x` likewise).
    @inline(__always)
    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = pos
        switch JSONNumberGrammar.scan(base, from: start, end: end) {
        case .matched(let stop):
            pos = stop
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: stop - start), as: UTF8.self)
            return JSONNumber(uncheckedLiteral: text)
        case .invalid(let at):
            throw JSONParseError(.syntax, at: at, "invalid number")
        }
    }
}
