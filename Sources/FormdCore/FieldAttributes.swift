/// A field's effective configuration: built-in defaults, then its presets in order, then
/// its own keys. Resolved once per (re)configuration so the hot path reads plain values.
public struct FieldAttributes: Equatable, Sendable {
    public var label: String? = nil
    public var placeholder: String? = nil
    public var pattern: FieldPattern? = nil
    /// The message of a `patternMismatch`.
    public var patternHint: String? = nil
    public var inputFilter: FieldPattern? = nil
    public var supportedEditActions = EditAction.allCases
    public var hints = FieldHints()
    public var secure = false
    public var revealed = false
    public var enabled = true
    public var returnAction = ReturnAction.next
    public var deleteOnEmpty = DeleteOnEmpty.none
    public var canBecomeFirstResponder = true
    public var canResignFirstResponder = true
    public var enablesReturnKeyAutomatically = false
    public var clearsOnBeginEditing = false
    public var required = false
    public var minLength: Int? = nil
    public var maxLength: Int? = nil
    public var autoAdvance = false

    public init() {}

    /// Defaults overlaid with `options` (which already has presets and own keys layered).
    public init(resolving options: FieldOptions) {
        if let v = options.label { label = v }
        if let v = options.placeholder { placeholder = v }
        if let v = options.secure { secure = v }
        if let v = options.revealed { revealed = v }
        if let v = options.enabled { enabled = v }
        if let v = options.returnAction { returnAction = v }
        if let v = options.deleteOnEmpty { deleteOnEmpty = v }
        if let v = options.canBecomeFirstResponder { canBecomeFirstResponder = v }
        if let v = options.canResignFirstResponder { canResignFirstResponder = v }
        if let v = options.enablesReturnKeyAutomatically { enablesReturnKeyAutomatically = v }
        if let v = options.clearsOnBeginEditing { clearsOnBeginEditing = v }
        if let v = options.required { required = v }
        if let v = options.minLength { minLength = v }
        if let v = options.maxLength { maxLength = v }
        if let v = options.pattern { pattern = v }
        if let v = options.patternHint { patternHint = v }
        if let v = options.inputFilter { inputFilter = v }
        if let v = options.autoAdvance { autoAdvance = v }
        if let v = options.supportedEditActions { supportedEditActions = v }
        if let v = options.hints { hints = v }
    }

    /// True when any key can make the text invalid.
    var hasConstraints: Bool { required || minLength != nil || maxLength != nil || pattern != nil }

    /// True when the text must be masked for everyone who did not ask for secrets.
    public var masksText: Bool { secure && !revealed }

    /// The edit actions this field offers now: a masked field never offers cut or copy.
    public func offers(_ action: EditAction) -> Bool {
        supportedEditActions.contains(action) && !(masksText && (action == .cut || action == .copy))
    }

    /// True when every character of `s` passes `inputFilter`.
    public func accepts(_ s: String) -> Bool {
        guard let filter = inputFilter else { return true }
        return filter.matchesEachCharacter(of: s)
    }

    /// The keys whose value differs from `other`, as a partial spec holding this side's
    /// values: exactly what `fieldChanged` reports.
    public func changes(since other: FieldAttributes) -> FieldOptions {
        var c = FieldOptions()
        if label != other.label { c.label = .some(label) }
        if placeholder != other.placeholder { c.placeholder = .some(placeholder) }
        if secure != other.secure { c.secure = secure }
        if revealed != other.revealed { c.revealed = revealed }
        if enabled != other.enabled { c.enabled = enabled }
        if returnAction != other.returnAction { c.returnAction = returnAction }
        if deleteOnEmpty != other.deleteOnEmpty { c.deleteOnEmpty = deleteOnEmpty }
        if canBecomeFirstResponder != other.canBecomeFirstResponder { c.canBecomeFirstResponder = canBecomeFirstResponder }
        if canResignFirstResponder != other.canResignFirstResponder { c.canResignFirstResponder = canResignFirstResponder }
        if enablesReturnKeyAutomatically != other.enablesReturnKeyAutomatically { c.enablesReturnKeyAutomatically = enablesReturnKeyAutomatically }
        if clearsOnBeginEditing != other.clearsOnBeginEditing { c.clearsOnBeginEditing = clearsOnBeginEditing }
        if required != other.required { c.required = required }
        if minLength != other.minLength { c.minLength = .some(minLength) }
        if maxLength != other.maxLength { c.maxLength = .some(maxLength) }
        if pattern != other.pattern { c.pattern = .some(pattern) }
        if patternHint != other.patternHint { c.patternHint = .some(patternHint) }
        if inputFilter != other.inputFilter { c.inputFilter = .some(inputFilter) }
        if autoAdvance != other.autoAdvance { c.autoAdvance = autoAdvance }
        if supportedEditActions != other.supportedEditActions { c.supportedEditActions = supportedEditActions }
        if hints != other.hints { c.hints = hints }
        return c
    }
}
