import FormdJSON

/// What the front end knows about one field: exactly what the protocol's field state and
/// events say, nothing computed from the rules.
struct FieldView {
    var id: String
    var label: String?
    var placeholder: String?
    var secure = false
    var revealed = false
    var enabled = true
    var canBecomeFirstResponder = true
    var returnAction = "next"
    var maxLength: Int?
    /// Filling it moves focus on (a one-time-code box): a paste is typed into it
    /// character by character, so a whole code fills the boxes.
    var autoAdvance = false
    /// What to draw: the text, or one `•` per character while masked.
    var display = ""
    var length = 0
    /// Caret (start == end) or selection, in characters (the session's position encoding).
    var selectionStart = 0
    var selectionEnd = 0
    /// Whether the caret (the selection's moving end) is at its start: the protocol's
    /// `backward`, sent only when true.
    var backward = false

    /// Where the caret is drawn.
    var caret: Int { backward ? selectionStart : selectionEnd }
    var valid = true
    /// The `message` of each validation error.
    var errors: [String] = []
    var touched = false

    var masked: Bool { secure && !revealed }

    init(id: String) { self.id = id }

    /// The messages of validation errors `[{"rule", "message"}, …]`.
    static func messages(_ errors: [JSONValue]) -> [String] {
        errors.compactMap { $0.objectValue?["message"]?.stringValue }
    }

    /// Reads a field state object (`formDefined`, `formReset`, `fieldAdded`).
    init?(state o: JSONObject) {
        guard let id = o["id"]?.stringValue else { return nil }
        self.id = id
        apply(o)
    }

    /// Overlays whichever members `o` has: a whole field state, or `fieldChanged.changes`.
    mutating func apply(_ o: JSONObject) {
        for m in o.members {
            let v = m.value
            switch m.key {
            case "label": label = v.stringValue
            case "placeholder": placeholder = v.stringValue
            case "secure": secure = v.boolValue ?? secure
            case "revealed": revealed = v.boolValue ?? revealed
            case "enabled": enabled = v.boolValue ?? enabled
            case "canBecomeFirstResponder": canBecomeFirstResponder = v.boolValue ?? canBecomeFirstResponder
            case "returnAction": returnAction = v.stringValue ?? returnAction
            case "maxLength": maxLength = v.numberValue?.intValue
            case "autoAdvance": autoAdvance = v.boolValue ?? autoAdvance
            case "display": display = v.stringValue ?? display
            case "length": length = v.numberValue?.intValue ?? length
            case "selection": applySelection(v)
            case "valid": valid = v.boolValue ?? valid
            case "errors": errors = v.arrayValue.map(FieldView.messages) ?? errors
            case "touched": touched = v.boolValue ?? touched
            default: break
            }
        }
    }

    mutating func applySelection(_ v: JSONValue) {
        guard let r = v.objectValue,
              let start = r["start"]?.numberValue?.intValue,
              let end = r["end"]?.numberValue?.intValue else { return }
        backward = r["backward"]?.boolValue ?? false
        selectionStart = start
        selectionEnd = end
    }
}

/// The form as the front end sees it, kept up to date from the protocol's events alone
/// (and the full state that `formDefined` carries). The renderer draws from this.
struct FormView {
    var fields: [FieldView] = []
    var firstResponder: String?
    /// Fields named by the last `submitFailed`: their errors show even if not touched.
    var failedSubmitFields: Set<String> = []
    /// Set by `submitted`; a Return that submits checks it.
    var submitted = false
    /// A refused edit since the last key (`changeRejected`), to ring the bell and explain.
    var notice: String?

    var focused: FieldView? { firstResponder.flatMap(field) }

    func field(_ id: String) -> FieldView? { fields.first { $0.id == id } }

    func index(_ id: String) -> Int? { fields.firstIndex { $0.id == id } }

    /// Whether `f`'s errors are drawn: an enabled, invalid field that was touched (left
    /// after a visit) or that a failed submit complained about.
    func showsErrors(_ f: FieldView) -> Bool {
        f.enabled && !f.valid && !f.errors.isEmpty && (f.touched || failedSubmitFields.contains(f.id))
    }

    /// Applies one event.
    mutating func apply(event name: String, _ p: JSONObject) {
        let id = p["field"]?.stringValue
        func update(_ body: (inout FieldView) -> Void) {
            if let id, let i = index(id) { body(&fields[i]) }
        }
        switch name {
        case "formDefined", "formReset":
            fields = (p["fields"]?.arrayValue ?? []).compactMap { $0.objectValue.flatMap(FieldView.init(state:)) }
            firstResponder = p["firstResponder"]?.stringValue
            failedSubmitFields = []
            submitted = false
        case "fieldAdded":
            guard let o = p["field"]?.objectValue, let f = FieldView(state: o) else { return }
            let at = min(max(p["index"]?.numberValue?.intValue ?? fields.count, 0), fields.count)
            fields.insert(f, at: at)
        case "fieldRemoved":
            if let id, let i = index(id) { fields.remove(at: i) }
        case "fieldChanged":
            if let changes = p["changes"]?.objectValue { update { $0.apply(changes) } }
        case "textChanged":
            update { f in
                if let d = p["display"]?.stringValue { f.display = d }
                if let n = p["length"]?.numberValue?.intValue { f.length = n }
                if let s = p["selection"] { f.applySelection(s) }
            }
        case "selectionChanged":
            update { f in if let s = p["selection"] { f.applySelection(s) } }
        case "validityChanged":
            update { f in
                f.valid = p["valid"]?.boolValue ?? f.valid
                f.errors = p["errors"]?.arrayValue.map(FieldView.messages) ?? []
            }
            if let id, p["valid"]?.boolValue == true { failedSubmitFields.remove(id) }
        case "focusChanged":
            firstResponder = p["to"]?.stringValue
        case "submitted":
            submitted = true
        case "submitFailed":
            submitted = false
            failedSubmitFields = Set((p["errors"]?.arrayValue ?? []).compactMap { $0.objectValue?["field"]?.stringValue })
        case "changeRejected":
            let reason = p["reason"]?.stringValue ?? ""
            switch reason {
            case "maxLength":
                let max = id.flatMap(field)?.maxLength
                notice = max.map { "at most \($0) character\($0 == 1 ? "" : "s") here" } ?? "the text is at its longest"
            case "inputFilter": notice = "that character is not allowed here"
            case "disabled": notice = "this field is disabled"
            default: break
            }
        default:
            break
        }
    }
}
