/// Entry points for turning bytes into one `JSONValue`.
///
/// Why a namespace of static functions: parsing has no configuration beyond the depth
/// limit, and a stateless call is trivially safe to use from any task or thread.
///
/// Accepted input is exactly RFC 8259: one value, optional surrounding whitespace
/// (space, tab, CR, LF), UTF-8 only. No BOM, no comments, no trailing commas, no NaN.
public enum JSONParser {
    /// Deep enough for any real JSON-RPC request, shallow enough that hostile nesting is
    /// rejected after a few hundred bytes of work.
    public static let defaultMaxDepth = 64

    /// Parses exactly one JSON value (surrounding whitespace allowed, nothing else).
    ///
    /// `maxDepth` bounds the nesting of arrays and objects combined; a value nested exactly
    /// `maxDepth` deep is accepted, one level more throws `.depthExceeded`. Parsing itself
    /// never recurses, but `JSONWriter.write` and the release of a value tree do, one stack
    /// frame per level, so the limit is also what keeps *using* the result safe: raise it
    /// to thousands, not millions.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParseError(.empty, at: 0, "empty input")
        }
        var parser = ByteParser(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses exactly one JSON value from a byte array, without copying it.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        // `withUnsafeBytes` is `rethrows` (untyped), so carry the typed error out in a Result.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from a string's UTF-8, without copying a native string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth)
            }
        }
        return try result.get()
    }
}
