/// Why a byte sequence is not one JSON value, and where.
///
/// Why a kind plus a byte offset plus a sentence: the JSON-RPC layer maps every parse
/// failure to the same "Parse error" (-32700) response, but operators reading logs need
/// to see *what* was wrong and *where*; tests need a stable, matchable `kind`.
public struct JSONParseError: Error, Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Anything that breaks the RFC 8259 grammar (including non-UTF-8 or NUL bytes outside strings).
        case syntax
        /// A string contains bytes that are not well-formed UTF-8 (overlong, surrogate, > U+10FFFF, truncated).
        case invalidUTF8
        /// A `\uD800`-style escape without its partner, or a lone low-surrogate escape.
        case loneSurrogate
        /// A raw byte below 0x20 inside a string; RFC 8259 requires those to be escaped.
        case controlCharacter
        /// Arrays and objects nested deeper than the parser's `maxDepth`.
        case depthExceeded(limit: Int)
        /// A complete value was followed by something other than whitespace.
        case trailingContent
        /// The input was empty or only whitespace.
        case empty
    }

    public let kind: Kind
    /// Byte offset (0-based) into the input where the problem was detected.
    public let offset: Int
    /// A sentence for humans, ending with the byte offset.
    public let message: String

    /// For code that needs to produce or fake a parse error (tests, adapters); the parser
    /// itself builds messages that end with "at byte <offset>".
    public init(kind: Kind, offset: Int, message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    @usableFromInline
    init(_ kind: Kind, at offset: Int, _ what: String) {
        self.kind = kind
        self.offset = offset
        self.message = "\(what) at byte \(offset)"
    }
}

extension JSONParseError: CustomStringConvertible {
    public var description: String { message }
}
