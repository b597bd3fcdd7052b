/// A whole-text regular expression, compiled once when the field is configured.
///
/// Equality is by source so specs stay comparable; the compiled form is only a cache.
///
/// The compiled `Regex` is kept in a box of its own. Its type comes from a library built
/// for binary compatibility, whose size the compiler may not assume: held inline it would
/// make every type holding a pattern (a field's options, a `fieldChanged` event, so every
/// event) of unknown size, copied and destroyed through the runtime, not in place.
public struct FieldPattern: Equatable, Sendable {
    public let source: String
    private let compiled: Compiled

    private final class Compiled: @unchecked Sendable {
        let regex: Regex<AnyRegexOutput>
        init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
    }

    /// Fails with a readable message when `source` is not a valid regular expression.
    public init(_ source: String) throws(FormError) {
        do {
            compiled = Compiled(try Regex(source))
        } catch {
            throw .invalidParams("pattern \(quoted(source)) is not a valid regular expression: \(error)")
        }
        self.source = source
    }

    /// True when the whole of `text` matches (not just a part of it).
    public func matchesWhole(_ text: String) -> Bool {
        (try? compiled.regex.wholeMatch(in: text)) != nil
    }

    public static func == (a: FieldPattern, b: FieldPattern) -> Bool { a.source == b.source }
}

/// A string in double quotes, for error messages that name a value.
func quoted(_ s: String) -> String { "\"\(s)\"" }

/// Equal byte for byte. Swift's `==` on strings is canonical equivalence, under which a
/// composed and a decomposed "é" are equal; a field's text is kept, reported and
/// submitted as the bytes the person gave, so changes are judged on bytes.
func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
