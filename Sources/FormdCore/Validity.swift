/// Whether a field's text satisfies its constraints, and why not, rule by rule.
///
/// The messages never quote the text, nor the pattern, so they are safe for secure fields
/// and readable by the person filling the form.
public struct Validity: Equatable, Sendable {
    public var errors: [ValidationError]
    public var isValid: Bool { errors.isEmpty }

    public static let valid = Validity(errors: [])

    public init(errors: [ValidationError]) { self.errors = errors }

    /// `required`, `minLength`, `maxLength` and `pattern` make a field invalid; they never
    /// refuse an edit by themselves (only `maxLength` does, in the edit rules).
    public init(text: String, length: Int, attributes a: FieldAttributes) {
        var errors: [ValidationError] = []
        if length == 0 {
            // An empty optional field is valid, as in HTML forms.
            if a.required { errors.append(ValidationError(.valueMissing, "Fill in this field.")) }
        } else {
            if let min = a.minLength, length < min {
                errors.append(ValidationError(.tooShort, "Use at least \(min) \(min == 1 ? "character" : "characters")."))
            }
            if let max = a.maxLength, length > max {
                errors.append(ValidationError(.tooLong, "Use at most \(max) \(max == 1 ? "character" : "characters")."))
            }
            if let p = a.pattern, !p.matchesWhole(text) {
                errors.append(ValidationError(.patternMismatch, a.patternHint ?? ValidationError.wrongForm))
            }
        }
        self.errors = errors
    }
}

/// One broken constraint: the rule, named as in HTML's `ValidityState`, and a sentence
/// for the person.
public struct ValidationError: Equatable, Sendable {
    public var rule: ValidityRule
    public var message: String

    public init(_ rule: ValidityRule, _ message: String) {
        self.rule = rule
        self.message = message
    }

    /// The message of a `patternMismatch` on a field without `patternHint`.
    public static let wrongForm = "The text is not in the expected form."
}

/// The constraints a text can break, by their names in HTML's `ValidityState`.
public enum ValidityRule: String, CaseIterable, Sendable {
    /// `required` and the text is empty.
    case valueMissing
    /// Fewer characters than `minLength`.
    case tooShort
    /// More characters than `maxLength` (possible only after `maxLength` was lowered).
    case tooLong
    /// The text does not match `pattern` as a whole.
    case patternMismatch
}
