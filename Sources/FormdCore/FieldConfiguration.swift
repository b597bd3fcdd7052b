/// A field's configuration apart from its id and own initial text: its preset list, its
/// own keys, and the attributes they resolve to.
///
/// A class, immutable, so fields configured alike (a form file's, or a field added next to
/// one configured alike) share one instance: 100,000 fields of the same shape hold one
/// configuration, not 100,000 copies of several hundred bytes (PERFORMANCE.md). Changing
/// a field's configuration makes a new instance.
final class FieldConfiguration: Equatable, Sendable {
    let configuration: [String]
    /// The field's own keys, without `text` (that is per field).
    let options: FieldOptions
    let attributes: FieldAttributes
    /// The initial text a preset gives, used when the field gives none of its own.
    let presetText: String?
    /// `attributes.hasConstraints`, kept: asked of the attributes in place, it copies them.
    let hasConstraints: Bool
    /// A `pattern` or an `inputFilter` is set (their size is checked against the limits).
    let hasPatterns: Bool
    /// `attributes.describingTextBytes`, kept: each field configured alike counts it.
    let describingTextBytes: Int
    /// `options` sets no key: a spec that sets none but `text` matches with nothing compared.
    private let setsNoKeys: Bool

    convenience init(configuration: [String], options: FieldOptions, presets: PresetLibrary, field: String) throws(FormError) {
        var own = options
        own.text = nil
        let resolved = try presets.resolve(configuration: configuration, own: own)
        let attributes = FieldAttributes(resolving: resolved)
        try FieldConfiguration.check(attributes, field: field)
        self.init(configuration: configuration, options: own, attributes: attributes, presetText: resolved.text)
    }

    private init(configuration: [String], options: FieldOptions, attributes: FieldAttributes, presetText: String?) {
        self.configuration = configuration
        self.options = options
        self.attributes = attributes
        self.presetText = presetText
        hasConstraints = attributes.hasConstraints
        hasPatterns = attributes.pattern != nil || attributes.inputFilter != nil
        describingTextBytes = attributes.describingTextBytes
        setsNoKeys = options.isEmpty
    }

    /// This configuration with another preset list, nothing re-resolved (a snapshot edited by hand).
    func replacing(configuration: [String]) -> FieldConfiguration {
        FieldConfiguration(configuration: configuration, options: options, attributes: attributes, presetText: presetText)
    }

    /// This configuration with other attributes, nothing re-resolved (a snapshot edited by hand).
    func replacing(attributes: FieldAttributes) -> FieldConfiguration {
        FieldConfiguration(configuration: configuration, options: options, attributes: attributes, presetText: presetText)
    }

    /// True when a spec with these keys would resolve to this same configuration, every
    /// string spelt byte for byte alike: `==` on strings is canonical equivalence, and a
    /// field must report the spelling it was given, not its neighbour's.
    func matches(configuration: [String], options: FieldOptions) -> Bool {
        guard configuration.count == self.configuration.count else { return false }
        if !configuration.isEmpty && !zip(configuration, self.configuration).allSatisfy({ sameBytes($0, $1) }) { return false }
        if setsNoKeys || options.setsNoKeyButText { return setsNoKeys && options.setsNoKeyButText }
        // Compared as given when it sets no text: a copy costs a retain per reference held.
        if options.text == nil { return options == self.options && spelledAlike(options) }
        var own = options
        own.text = nil
        return own == self.options && spelledAlike(own)
    }

    /// The strings of `options` (already `==` to this configuration's) have the same bytes.
    private func spelledAlike(_ options: FieldOptions) -> Bool {
        func same(_ a: String??, _ b: String??) -> Bool {
            guard case .some(.some(let a)) = a, case .some(.some(let b)) = b else { return true }
            return sameBytes(a, b)
        }
        func same(_ a: FieldPattern??, _ b: FieldPattern??) -> Bool {
            guard case .some(.some(let a)) = a, case .some(.some(let b)) = b else { return true }
            return sameBytes(a.source, b.source)
        }
        guard same(options.label, self.options.label), same(options.placeholder, self.options.placeholder),
              same(options.patternHint, self.options.patternHint), same(options.pattern, self.options.pattern),
              same(options.inputFilter, self.options.inputFilter) else { return false }
        // Both set or both not (the options are `==`).
        guard let hints = options.hints, let myHints = self.options.hints else { return true }
        return zip(hints.members, myHints.members).allSatisfy { sameBytes($0.key, $1.key) && sameBytes($0.json, $1.json) }
    }

    /// Equal by value, so fields compare the same whether or not they share an instance.
    static func == (a: FieldConfiguration, b: FieldConfiguration) -> Bool {
        a === b || (a.configuration == b.configuration && a.options == b.options
                    && a.attributes == b.attributes && a.presetText == b.presetText)
    }

    private static func check(_ a: FieldAttributes, field: String) throws(FormError) {
        if let min = a.minLength, min < 0 {
            throw .invalidParams("field \(quoted(field)): minLength must be 0 or more, got \(min)")
        }
        if let max = a.maxLength, max < 0 {
            throw .invalidParams("field \(quoted(field)): maxLength must be 0 or more, got \(max)")
        }
        if let min = a.minLength, let max = a.maxLength, min > max {
            throw .invalidParams("field \(quoted(field)): minLength \(min) is greater than maxLength \(max)")
        }
    }
}
