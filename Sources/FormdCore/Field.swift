/// One field's live state: its spec, the configuration resolved from it, and what the
/// person has done to it.
///
/// The text lives in a `TextBuffer`, which keeps its length and selection up to date
/// without recounting, and `validity` is kept so `validityChanged` is emitted only on a
/// real change.
///
/// What an edit reads and writes comes first, so it lies in as few cache lines as it can;
/// the field's own initial text, read only to define, reset and report the field, is held
/// in a box beside it, and the initial text is not kept apart from what gives it
/// (PERFORMANCE.md, "The 10,000-field mix").
public struct Field: Equatable, Sendable {
    public let id: String
    /// Shared with every field configured alike; see `FieldConfiguration`.
    private var configuration: FieldConfiguration
    public internal(set) var buffer: TextBuffer
    var history: EditHistory
    public internal(set) var demand: Demand? = nil
    /// Has been first responder since the form was defined or reset.
    public internal(set) var visited = false
    /// Has resigned first responder after a visit.
    public internal(set) var touched = false
    /// Restored from `--state` without its secure text (not persisted): the text is empty
    /// until it is next changed or the form is reset.
    public internal(set) var restoredWithoutSecret = false
    public private(set) var validity: Validity
    /// The `text` key of the field's own spec, if it gave one.
    private let ownText: OwnText?

    /// A field's own initial text, boxed: a field that gives none holds one word, not two.
    private final class OwnText: Equatable, Sendable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (a: OwnText, b: OwnText) -> Bool { a.text == b.text }
    }

    /// UTF-8 bytes of the strings that describe this field: its id, label, placeholder,
    /// pattern hint and hints (counted in `--max-total-text`).
    var describingTextBytes: Int { id.utf8.count + configuration.describingTextBytes }

    /// What `reset` returns to and `dirty` compares with: the spec's text, else its presets'.
    public var initialText: String { ownText?.text ?? configuration.presetText ?? "" }

    /// Builds a field from its spec; fails on an unknown preset, a bad pattern or bounds,
    /// or an initial text that breaks `maxLength`. `sharing` is a configuration to reuse
    /// when the spec resolves to the same one (the previous field's, when defining a form).
    public init(spec: borrowing FieldSpec, presets: PresetLibrary, limits: EngineLimits = EngineLimits()) throws(FormError) {
        try self.init(spec: spec, presets: presets, limits: limits, sharing: nil)
    }

    init(spec: borrowing FieldSpec, presets: PresetLibrary, limits: EngineLimits, sharing: FieldConfiguration?) throws(FormError) {
        let configuration: FieldConfiguration
        if let shared = sharing, shared.matches(configuration: spec.configuration, options: spec.options) {
            configuration = shared
        } else {
            configuration = try FieldConfiguration(configuration: spec.configuration, options: spec.options,
                                                   presets: presets, field: spec.id)
        }
        if configuration.hasPatterns { try limits.checkPatterns(configuration.attributes, field: spec.id) }
        let initial = spec.options.text ?? configuration.presetText ?? ""
        let length = initial.isEmpty ? 0 : initial.count
        if let max = configuration.attributes.maxLength, length > max {
            throw .invalidParams("field \(quoted(spec.id)): text has \(length) \(length == 1 ? "character" : "characters") but maxLength is \(max)")
        }
        self.id = spec.id
        self.configuration = configuration
        self.ownText = spec.options.text.map(OwnText.init)
        self.buffer = TextBuffer(initial)
        self.history = EditHistory()
        // A field without constraints is always valid (as in `revalidate`).
        self.validity = configuration.hasConstraints
            ? Validity(text: initial, length: length, attributes: configuration.attributes) : Validity(errors: [])
    }

    /// The spec this field was built from (or last reconfigured to).
    public var spec: FieldSpec {
        var options = configuration.options
        options.text = ownText?.text
        return FieldSpec(id: id, configuration: configuration.configuration, options: options)
    }

    /// The effective configuration: read in place from the shared instance, never copied.
    public var attributes: FieldAttributes {
        _read { yield configuration.attributes }
    }

    /// The configuration object, for fields built alike to share.
    var sharedConfiguration: FieldConfiguration { configuration }

    /// The field with `spec` re-resolved against `presets`, keeping the person's text,
    /// selection and undo history. `initialText` is always what the spec resolves to
    /// (which `init` checked against `maxLength`, so `reset` never restores a text the
    /// field refuses); when it changed, the caller puts it in as an edit.
    func reconfigured(to spec: FieldSpec, presets: PresetLibrary, limits: EngineLimits) throws(FormError) -> Field {
        var next = try Field(spec: spec, presets: presets, limits: limits)
        next.demand = demand
        next.visited = visited
        next.touched = touched
        next.restoredWithoutSecret = restoredWithoutSecret
        next.buffer = buffer
        next.history = history
        next.revalidate()
        return next
    }

    public var text: String { buffer.text }
    /// Characters (grapheme clusters) in `text`.
    public var length: Int { buffer.length }

    /// The text differs from the initial text, byte for byte: a decomposed "é" where the
    /// initial text has a composed one is a change, as `textChanged` reported it.
    public var isDirty: Bool { !sameBytes(text, initialText) }

    /// What a renderer draws: the text, or one bullet per character while it is masked.
    public var display: String {
        attributes.masksText ? String(repeating: "•", count: length) : text
    }

    /// The text if it may be shown without an explicit request for secrets.
    public var visibleText: String? { attributes.masksText ? nil : text }

    /// Replaces `lo..<hi` with `s` (caret after it), records the step in `log` for undo
    /// unless it is an undo itself, and revalidates. Returns the change and whether
    /// validity changed.
    mutating func replace(_ lo: Cursor, _ hi: Cursor, with s: String, kind: EditHistory.Kind?,
                          log: inout UndoLog) -> (CharacterChange, Bool) {
        if let kind {
            let start = buffer.utf8Offset(lo.index)
            log.record(kind, startUTF8: start, removedUTF8: buffer.utf8Offset(hi.index) - start, insertedUTF8: s.utf8.count,
                       of: buffer.text, secret: attributes.secure, anchorBeforeUTF8: buffer.utf8Offset(buffer.anchor.index),
                       headBeforeUTF8: buffer.utf8Offset(buffer.head.index), into: &history)
        }
        let change = buffer.replace(lo, hi, with: s)
        restoredWithoutSecret = false
        return (change, revalidate())
    }

    /// The `textChanged` event of `change`, positions counted in `encoding`, with the
    /// field's text if `withText` and it is not masked. Mutating only so that it runs on
    /// the field in place: read through the form's array, each call on the buffer would
    /// copy it first.
    mutating func textChanged(_ change: consuming CharacterChange, _ encoding: PositionEncoding, withText: Bool) -> FormEvent {
        let masked = attributes.masksText
        return .textChanged(field: id, text: masked || !withText ? nil : buffer.text, length: buffer.length,
                            edit: buffer.edit(consume change, encoding, masked: masked),
                            selection: buffer.selection(encoding, masked: masked))
    }

    mutating func select(anchor: Cursor, head: Cursor) {
        buffer.select(anchor: anchor, head: head)
        history.close()
    }

    mutating func resetToInitial() {
        buffer = TextBuffer(initialText)
        history.clear()
        revalidate()
        demand = nil
        visited = false
        touched = false
        restoredWithoutSecret = false
    }

    @discardableResult
    mutating func revalidate() -> Bool {
        // A field without constraints is always valid: skip building a Validity.
        if !configuration.hasConstraints { return false }
        let v = Validity(text: text, length: length, attributes: attributes)
        if v == validity { return false }
        validity = v
        return true
    }
}
