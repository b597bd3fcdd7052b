import FormdPattern

/// A field's `pattern` or `inputFilter`: a pattern of formd's dialect (FormdPattern),
/// parsed when the field is configured, matched in time linear in the text.
///
/// Equality is by source so specs stay comparable. The parsed pattern is a class, so a
/// copy of a `FieldPattern` is a retain and every type holding one keeps a fixed size.
public struct FieldPattern: Equatable, Sendable {
    private let compiled: Pattern

    /// Fails with a message naming what is wrong and where when `source` is not a pattern
    /// of the dialect.
    public init(_ source: String) throws(FormError) {
        do {
            compiled = try Pattern(source)
        } catch {
            throw .invalidParams(error.message)
        }
    }

    public var source: String { compiled.source }

    /// Instructions of the compiled pattern, which `--max-pattern-size` bounds.
    public var size: Int { compiled.size }

    /// `size` in words: the largest measured size stands for any larger one.
    var sizeDescription: String { size >= Pattern.sizeCeiling ? "\(size) or more" : "\(size)" }

    /// True when the whole of `text` matches (not just a part of it).
    public func matchesWhole(_ text: String) -> Bool { compiled.matchesWhole(text) }

    /// True when every character of `text` on its own matches (an input filter's test).
    public func matchesEachCharacter(of text: String) -> Bool { compiled.matchesEachCharacter(of: text) }

    public static func == (a: FieldPattern, b: FieldPattern) -> Bool { a.compiled === b.compiled || a.source == b.source }
}

/// A string in double quotes, for error messages that name a value.
func quoted(_ s: String) -> String { "\"\(s)\"" }

/// Equal byte for byte. Swift's `==` on strings is canonical equivalence, under which a
/// composed and a decomposed "é" are equal; a field's text is kept, reported and
/// submitted as the bytes the person gave, so changes are judged on bytes.
func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
