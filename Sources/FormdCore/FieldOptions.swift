/// A partial field spec: every key a field spec can set, each optional.
///
/// The same shape serves presets, a field's own keys, `configureField` and the `changes`
/// of `fieldChanged`, so that "which keys were given" is always explicit and presets can
/// be layered like ResponsiveTextField's `Configuration.combine`: later layers win key by
/// key, and `hints` merge key by key.
public struct FieldOptions: Equatable, Sendable {
    public var label: String??
    public var placeholder: String??
    /// The initial text (what `reset` returns to and `dirty` compares with).
    public var text: String?
    public var secure: Bool?
    public var revealed: Bool?
    public var enabled: Bool?
    public var returnAction: ReturnAction?
    public var deleteOnEmpty: DeleteOnEmpty?
    public var canBecomeFirstResponder: Bool?
    public var canResignFirstResponder: Bool?
    public var enablesReturnKeyAutomatically: Bool?
    public var clearsOnBeginEditing: Bool?
    public var required: Bool?
    public var minLength: Int??
    public var maxLength: Int??
    public var pattern: FieldPattern??
    /// The message of a `patternMismatch`: what the pattern asks for, in words.
    public var patternHint: String??
    /// Every inserted character must match this whole (e.g. `[0-9]`).
    public var inputFilter: FieldPattern??
    /// Typing that fills `maxLength` moves focus on, as Return with `next` would.
    public var autoAdvance: Bool?
    public var supportedEditActions: [EditAction]?
    public var hints: FieldHints?

    public init() {}

    /// Options with the one key `key` set (`setEnabled`, `setSecure`, `setRevealed`).
    init<Value>(_ key: WritableKeyPath<FieldOptions, Value?>, _ value: Value) {
        self[keyPath: key] = value
    }

    /// True when no key is set.
    public var isEmpty: Bool { self == FieldOptions() }

    /// Layers `top` over `self`: every key `top` sets wins; hints merge key by key.
    public func overlaid(with top: FieldOptions) -> FieldOptions {
        var out = self
        if let v = top.label { out.label = v }
        if let v = top.placeholder { out.placeholder = v }
        if let v = top.text { out.text = v }
        if let v = top.secure { out.secure = v }
        if let v = top.revealed { out.revealed = v }
        if let v = top.enabled { out.enabled = v }
        if let v = top.returnAction { out.returnAction = v }
        if let v = top.deleteOnEmpty { out.deleteOnEmpty = v }
        if let v = top.canBecomeFirstResponder { out.canBecomeFirstResponder = v }
        if let v = top.canResignFirstResponder { out.canResignFirstResponder = v }
        if let v = top.enablesReturnKeyAutomatically { out.enablesReturnKeyAutomatically = v }
        if let v = top.clearsOnBeginEditing { out.clearsOnBeginEditing = v }
        if let v = top.required { out.required = v }
        if let v = top.minLength { out.minLength = v }
        if let v = top.maxLength { out.maxLength = v }
        if let v = top.pattern { out.pattern = v }
        if let v = top.patternHint { out.patternHint = v }
        if let v = top.inputFilter { out.inputFilter = v }
        if let v = top.autoAdvance { out.autoAdvance = v }
        if let v = top.supportedEditActions { out.supportedEditActions = v }
        if let v = top.hints { out.hints = (out.hints ?? FieldHints()).merging(v) }
        return out
    }
}
