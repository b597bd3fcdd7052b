/// One field's live state: its spec, the configuration resolved from it, and what the
/// person has done to it.
///
/// `length` is kept alongside `text` so the hot path never recounts grapheme clusters,
/// and `validity` is kept so `validityChanged` is emitted only on a real change.
public struct Field: Equatable, Sendable {
    public let id: String
    public private(set) var spec: FieldSpec
    public private(set) var attributes: FieldAttributes
    public private(set) var initialText: String
    public private(set) var text: String
    /// Characters (grapheme clusters) in `text`.
    public private(set) var length: Int
    public private(set) var validity: Validity
    public internal(set) var demand: Demand? = nil
    /// Has been first responder since the form was defined or reset.
    public internal(set) var visited = false
    /// Has resigned first responder after a visit.
    public internal(set) var touched = false

    /// Builds a field from its spec; fails on an unknown preset, a bad pattern or bounds,
    /// or an initial text that breaks `maxLength`.
    public init(spec: FieldSpec, presets: PresetLibrary) throws(FormError) {
        let resolved = try presets.resolve(configuration: spec.configuration, own: spec.options)
        let attributes = FieldAttributes(resolving: resolved)
        try Field.check(attributes, field: spec.id)
        let initial = resolved.text ?? ""
        let length = initial.count
        if let max = attributes.maxLength, length > max {
            throw .invalidParams("field \(quoted(spec.id)): text has \(length) characters but maxLength is \(max)")
        }
        self.id = spec.id
        self.spec = spec
        self.attributes = attributes
        self.initialText = initial
        self.text = initial
        self.length = length
        self.validity = Validity(text: initial, length: length, attributes: attributes)
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

    /// The field with `spec` re-resolved against `presets`, keeping the person's text
    /// unless the resolved initial text changed (from the field's own `text` or from a
    /// preset): then the text is the new initial text. Comparing resolved values keeps
    /// `initialText` always equal to what the spec resolves to, which `init` checked
    /// against `maxLength`, so `reset` can never restore a text the field refuses.
    func reconfigured(to spec: FieldSpec, presets: PresetLibrary) throws(FormError) -> Field {
        var next = try Field(spec: spec, presets: presets)
        next.demand = demand
        next.visited = visited
        next.touched = touched
        if next.initialText == initialText {
            next.setText(text, length: length)
        }
        return next
    }

    public var isDirty: Bool { text != initialText }

    /// What a renderer draws: the text, or one bullet per character while it is masked.
    public var display: String {
        attributes.masksText ? String(repeating: "•", count: length) : text
    }

    /// The text if it may be shown without an explicit request for secrets.
    public var visibleText: String? { attributes.masksText ? nil : text }

    /// Replaces the text; returns true when validity changed.
    @discardableResult
    mutating func setText(_ newText: String, length newLength: Int) -> Bool {
        text = newText
        length = newLength
        return revalidate()
    }

    /// Removes the last character; returns true when validity changed.
    mutating func removeLastCharacter() -> Bool {
        text.removeLast()
        length -= 1
        return revalidate()
    }

    mutating func resetToInitial() {
        setText(initialText, length: initialText.count)
        demand = nil
        visited = false
        touched = false
    }

    private mutating func revalidate() -> Bool {
        let v = Validity(text: text, length: length, attributes: attributes)
        if v == validity { return false }
        validity = v
        return true
    }
}
