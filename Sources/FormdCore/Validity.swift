/// Whether a field's text satisfies its constraints, and in words why not.
///
/// The messages never quote the text, so they are safe for secure fields.
public struct Validity: Equatable, Sendable {
    public var errors: [String]
    public var isValid: Bool { errors.isEmpty }

    public static let valid = Validity(errors: [])

    public init(errors: [String]) { self.errors = errors }

    /// `required`, `minLength`, `maxLength` and `pattern` make a field invalid; they never
    /// refuse an edit by themselves (only `maxLength` does, in the edit rules).
    public init(text: String, length: Int, attributes a: FieldAttributes) {
        var errors: [String] = []
        if length == 0 {
            // An empty optional field is valid, as in HTML forms.
            if a.required { errors.append("is required") }
        } else {
            if let min = a.minLength, length < min {
                errors.append("must be at least \(min) \(min == 1 ? "character" : "characters")")
            }
            if let max = a.maxLength, length > max {
                errors.append("must be at most \(max) \(max == 1 ? "character" : "characters")")
            }
            if let p = a.pattern, !p.matchesWhole(text) {
                errors.append("does not match the pattern \(p.source)")
            }
        }
        self.errors = errors
    }
}
