/// A field's effective configuration: built-in defaults, then its presets in order, then
/// its own keys. Resolved once per (re)configuration so the hot path reads plain values.
public struct FieldAttributes: Equatable, Sendable {
    /// The members that hold references, kept together in one immutable box so a copy of
    /// the attributes costs one retain, not six: the hot path reads attributes on every
    /// keystroke and Swift often copies a struct to read one member of it.
    private final class Referenced: Equatable, @unchecked Sendable {
        var label: String? = nil
        var placeholder: String? = nil
        var pattern: FieldPattern? = nil {
            didSet { hasPattern = pattern != nil }
        }
        var inputFilter: FieldPattern? = nil {
            didSet { hasInputFilter = inputFilter != nil }
        }
        /// Whether each is set, readable without copying it (a copy of a pattern retains
        /// its source and its compiled form), and every keystroke asks.
        private(set) var hasPattern = false
        private(set) var hasInputFilter = false
        var supportedEditActions = EditAction.allCases
        var hints = FieldHints()

        init() {}

        func copy() -> Referenced {
            let c = Referenced()
            c.label = label
            c.placeholder = placeholder
            c.pattern = pattern
            c.inputFilter = inputFilter
            c.supportedEditActions = supportedEditActions
            c.hints = hints
            return c
        }

        static func == (a: Referenced, b: Referenced) -> Bool {
            a === b || (a.label == b.label && a.placeholder == b.placeholder && a.pattern == b.pattern
                        && a.inputFilter == b.inputFilter && a.supportedEditActions == b.supportedEditActions
                        && a.hints == b.hints)
        }
    }

    private static let defaults = Referenced()
    private var referenced = FieldAttributes.defaults

    /// Changes one referenced member in a fresh box (the box is shared, never mutated).
    private mutating func update(_ body: (Referenced) -> Void) {
        let c = referenced.copy()
        body(c)
        referenced = c
    }

    public var label: String? {
        get { referenced.label }
        set { update { $0.label = newValue } }
    }
    public var placeholder: String? {
        get { referenced.placeholder }
        set { update { $0.placeholder = newValue } }
    }
    public var pattern: FieldPattern? {
        get { referenced.pattern }
        set { update { $0.pattern = newValue } }
    }
    public var inputFilter: FieldPattern? {
        get { referenced.inputFilter }
        set { update { $0.inputFilter = newValue } }
    }
    public var supportedEditActions: [EditAction] {
        get { referenced.supportedEditActions }
        set { update { $0.supportedEditActions = newValue } }
    }
    public var hints: FieldHints {
        get { referenced.hints }
        set { update { $0.hints = newValue } }
    }

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
        if let v = options.inputFilter { inputFilter = v }
        if let v = options.autoAdvance { autoAdvance = v }
        if let v = options.supportedEditActions { supportedEditActions = v }
        if let v = options.hints { hints = v }
    }

    /// True when any key can make the text invalid.
    var hasConstraints: Bool { required || minLength != nil || maxLength != nil || referenced.hasPattern }

    /// True when the text must be masked for everyone who did not ask for secrets.
    public var masksText: Bool { secure && !revealed }

    /// The edit actions this field offers now: a masked field never offers cut or copy.
    public func offers(_ action: EditAction) -> Bool {
        supportedEditActions.contains(action) && !(masksText && (action == .cut || action == .copy))
    }

    /// True when every character of `s` passes `inputFilter`.
    public func accepts(_ s: String) -> Bool {
        guard referenced.hasInputFilter, let filter = inputFilter else { return true }
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
        if inputFilter != other.inputFilter { c.inputFilter = .some(inputFilter) }
        if autoAdvance != other.autoAdvance { c.autoAdvance = autoAdvance }
        if supportedEditActions != other.supportedEditActions { c.supportedEditActions = supportedEditActions }
        if hints != other.hints { c.hints = hints }
        return c
    }
}
