/// A partial field spec: every key a field spec can set, each optional.
///
/// The same shape serves presets, a field's own keys, `configureField` and the `changes`
/// of `fieldChanged`, so that "which keys were given" is always explicit and presets can
/// be layered like ResponsiveTextField's `Configuration.combine`: later layers win key by
/// key, and `hints` merge key by key.
public struct FieldOptions: Equatable, Sendable {
    public var label: String?? { get { box.map { $0.keys.label } ?? nil } set { keys.label = newValue } }
    public var placeholder: String?? { get { box.map { $0.keys.placeholder } ?? nil } set { keys.placeholder = newValue } }
    /// The initial text (what `reset` returns to and `dirty` compares with).
    public var text: String? { get { box?.keys.text } set { keys.text = newValue } }
    public var secure: Bool? { get { box?.keys.secure } set { keys.secure = newValue } }
    public var revealed: Bool? { get { box?.keys.revealed } set { keys.revealed = newValue } }
    public var enabled: Bool? { get { box?.keys.enabled } set { keys.enabled = newValue } }
    public var returnAction: ReturnAction? { get { box?.keys.returnAction } set { keys.returnAction = newValue } }
    public var deleteOnEmpty: DeleteOnEmpty? { get { box?.keys.deleteOnEmpty } set { keys.deleteOnEmpty = newValue } }
    public var canBecomeFirstResponder: Bool? {
        get { box?.keys.canBecomeFirstResponder } set { keys.canBecomeFirstResponder = newValue }
    }
    public var canResignFirstResponder: Bool? {
        get { box?.keys.canResignFirstResponder } set { keys.canResignFirstResponder = newValue }
    }
    public var enablesReturnKeyAutomatically: Bool? {
        get { box?.keys.enablesReturnKeyAutomatically } set { keys.enablesReturnKeyAutomatically = newValue }
    }
    public var clearsOnBeginEditing: Bool? { get { box?.keys.clearsOnBeginEditing } set { keys.clearsOnBeginEditing = newValue } }
    public var required: Bool? { get { box?.keys.required } set { keys.required = newValue } }
    public var minLength: Int?? { get { box.map { $0.keys.minLength } ?? nil } set { keys.minLength = newValue } }
    public var maxLength: Int?? { get { box.map { $0.keys.maxLength } ?? nil } set { keys.maxLength = newValue } }
    public var pattern: FieldPattern?? { get { box.map { $0.keys.pattern } ?? nil } set { keys.pattern = newValue } }
    /// The message of a `patternMismatch`: what the pattern asks for, in words.
    public var patternHint: String?? { get { box.map { $0.keys.patternHint } ?? nil } set { keys.patternHint = newValue } }
    /// Every inserted character must match this whole (e.g. `[0-9]`).
    public var inputFilter: FieldPattern?? { get { box.map { $0.keys.inputFilter } ?? nil } set { keys.inputFilter = newValue } }
    /// Typing that fills `maxLength` moves focus on, as Return with `next` would.
    public var autoAdvance: Bool? { get { box?.keys.autoAdvance } set { keys.autoAdvance = newValue } }
    public var supportedEditActions: [EditAction]? {
        get { box?.keys.supportedEditActions } set { keys.supportedEditActions = newValue }
    }
    public var hints: FieldHints? { get { box?.keys.hints } set { keys.hints = newValue } }

    /// The keys set, boxed, or nil while none has been: a spec is copied whole wherever it
    /// is read out of an array (a form of 10,000 fields, several times each), and two dozen
    /// optionals cost a retain each to copy where a box costs one, none at all (PERFORMANCE.md,
    /// "Round of 2026-12-02: define").
    private var box: Box?

    /// Every key, each optional: what a box holds.
    private struct Keys: Equatable, Sendable {
        var label: String??
        var placeholder: String??
        var text: String?
        var secure: Bool?
        var revealed: Bool?
        var enabled: Bool?
        var returnAction: ReturnAction?
        var deleteOnEmpty: DeleteOnEmpty?
        var canBecomeFirstResponder: Bool?
        var canResignFirstResponder: Bool?
        var enablesReturnKeyAutomatically: Bool?
        var clearsOnBeginEditing: Bool?
        var required: Bool?
        var minLength: Int??
        var maxLength: Int??
        var pattern: FieldPattern??
        var patternHint: String??
        var inputFilter: FieldPattern??
        var autoAdvance: Bool?
        var supportedEditActions: [EditAction]?
        var hints: FieldHints?
    }

    /// Changed in place only while no other options hold it (copy on write).
    private final class Box: @unchecked Sendable {
        var keys: Keys
        init(_ keys: Keys) { self.keys = keys }
    }

    /// The keys to change, in a box of these options' own.
    private var keys: Keys {
        get { box?.keys ?? Keys() }
        _modify {
            if box == nil {
                box = Box(Keys())
            } else if !isKnownUniquelyReferenced(&box) {
                box = Box(box!.keys)
            }
            yield &box!.keys
        }
    }

    public init() {}

    public static func == (a: FieldOptions, b: FieldOptions) -> Bool {
        a.box === b.box || a.keys == b.keys
    }

    /// Options with the one key `key` set (`setEnabled`, `setSecure`, `setRevealed`).
    init<Value>(_ key: WritableKeyPath<FieldOptions, Value?>, _ value: Value) {
        self[keyPath: key] = value
    }

    /// True when no key is set.
    public var isEmpty: Bool { box.map { $0.keys == Keys() } ?? true }

    /// True when no key but perhaps `text` is set.
    var setsNoKeyButText: Bool {
        guard let box else { return true }
        var keys = Keys()
        keys.text = box.keys.text
        return box.keys == keys
    }

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

extension FieldOptions: CustomReflectable {
    /// Its keys by name, as a struct of them would show (not its box).
    public var customMirror: Mirror { Mirror(reflecting: keys) }
}
