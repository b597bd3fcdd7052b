@testable import FormdCore

// MARK: Building specs

/// A field spec: `field("pw", ["password"]) { $0.maxLength = 8 }`.
func field(_ id: String, _ configuration: [String] = [], _ set: (inout FieldOptions) -> Void = { _ in }) -> FieldSpec {
    FieldSpec(id: id, configuration: configuration, options: options(set))
}

/// A partial spec: `options { $0.enabled = false }`.
func options(_ set: (inout FieldOptions) -> Void) -> FieldOptions {
    var o = FieldOptions()
    set(&o)
    return o
}

/// Attributes that differ from the defaults as `set` says.
func attributes(_ set: (inout FieldAttributes) -> Void = { _ in }) -> FieldAttributes {
    var a = FieldAttributes()
    set(&a)
    return a
}

/// A pattern that must compile.
func pattern(_ source: String) -> FieldPattern {
    do { return try FieldPattern(source) } catch { fatalError("test pattern \(source) did not compile: \(error)") }
}

// MARK: Expected field state, spelled out

extension FieldSnapshot {
    /// A field state written by hand: every property is set here, so nothing is taken
    /// from the engine (the placeholder field below is fully overwritten).
    static func expect(_ id: String, configuration: [String] = [], attributes: FieldAttributes = FieldAttributes(),
                       text: String? = "", display: String = "", length: Int = 0, selection: TextRange = .caret(0),
                       isFirstResponder: Bool = false, demand: Demand? = nil, validity: Validity = .valid,
                       dirty: Bool = false, visited: Bool = false, touched: Bool = false) -> FieldSnapshot {
        var s = FieldSnapshot(try! Field(spec: FieldSpec(id: "placeholder"), presets: .builtIn),
                              isFirstResponder: false, includeSecrets: true, encoding: .character)
        s.id = id
        s.configuration = configuration
        s.attributes = attributes
        s.text = text
        s.display = display
        s.length = length
        s.selection = selection
        s.isFirstResponder = isFirstResponder
        s.demand = demand
        s.validity = validity
        s.dirty = dirty
        s.visited = visited
        s.touched = touched
        return s
    }

    /// The text after an edit, with its display, length and selection: `display`
    /// defaults to the text itself (unmasked field).
    mutating func holds(_ text: String, display: String? = nil, length: Int, selection: TextRange, dirty: Bool = true) {
        self.text = text
        self.display = display ?? text
        self.length = length
        self.selection = selection
        self.dirty = dirty
    }
}

// MARK: Positions

extension TextRange {
    /// A caret (an empty selection) at `p`.
    static func caret(_ p: Int) -> TextRange { TextRange(start: p, end: p) }
    init(_ start: Int, _ end: Int, backward: Bool = false) { self.init(start: start, end: end, backward: backward) }
    /// A selection whose head (the caret) is at `start`, before its anchor at `end`.
    static func backward(_ start: Int, _ end: Int) -> TextRange { TextRange(start: start, end: end, backward: true) }
}

extension TextEdit {
    /// `start..<end` of the old text replaced by `text`.
    init(_ start: Int, _ end: Int, _ text: String) { self.init(start: start, end: end, text: text) }
}

// MARK: Editing the model

extension FormSnapshot {
    /// The model of field `id`; traps when the form has no such field (a broken test).
    subscript(id: String) -> FieldSnapshot {
        get {
            guard let f = fields.first(where: { $0.id == id }) else { fatalError("no field \(id) in the model") }
            return f
        }
        set {
            guard let i = fields.firstIndex(where: { $0.id == id }) else { fatalError("no field \(id) in the model") }
            fields[i] = newValue
        }
    }

    /// Moves first responder in the model: `firstResponder` and every `isFirstResponder`.
    mutating func focus(_ id: String?) {
        firstResponder = id
        for i in fields.indices { fields[i].isFirstResponder = fields[i].id == id }
    }
}

// MARK: Short names for the events every focus move emits

extension FormEvent {
    static func became(_ id: String) -> FormEvent { .responderChanged(field: id, isFirstResponder: true) }
    static func resigned(_ id: String) -> FormEvent { .responderChanged(field: id, isFirstResponder: false) }
    /// First time a field becomes first responder since definition or reset.
    static func visited(_ id: String) -> FormEvent { .fieldChanged(field: id, changes: FieldChanges(visited: true)) }
    /// First time a field resigns after a visit.
    static func touched(_ id: String) -> FormEvent { .fieldChanged(field: id, changes: FieldChanges(touched: true)) }
    static func demand(_ id: String, _ outcome: DemandOutcome, pending: Demand? = nil) -> FormEvent {
        .demandChanged(field: id, demand: pending, outcome: outcome)
    }
    static func changed(_ id: String, _ set: (inout FieldOptions) -> Void) -> FormEvent {
        .fieldChanged(field: id, changes: FieldChanges(options: options(set)))
    }
}

/// Plain fields `a`, `b`, `c`, ... with default options.
func plainFields(_ ids: String...) -> [FieldSpec] { ids.map { field($0) } }

extension FormHarness {
    /// Setup: makes `id` first responder (from no responder, first visit) and checks it.
    mutating func focus(_ id: String, file: StaticString = #filePath, line: UInt = #line) {
        send(.demandFocus(field: id, demand: .become), .demand(.fulfilled),
             events: [.became(id), .visited(id), .focusChanged(from: nil, to: id), .demand(id, .fulfilled)],
             state: { $0.focus(id); $0[id].visited = true }, file: file, line: line)
    }
}

extension FormHarness {
    /// `defineForm` checked against a literal: the `formDefined` event must carry exactly
    /// `fields` (with masked texts withheld) and the state must hold exactly `fields`.
    mutating func sendDefine(_ specs: [FieldSpec], on form: String = FormEngine.defaultForm, presets: [String: FieldOptions] = [:],
                             expect fields: [FieldSnapshot], file: StaticString = #filePath, line: UInt = #line) {
        let seq = nextSeq(form)
        let withheld = fields.map { f -> FieldSnapshot in
            var f = f
            if f.attributes.secure && !f.attributes.revealed { f.text = nil }
            return f
        }
        send(.defineForm(fields: specs, presets: presets), on: form,
             events: [.formDefined(FormSnapshot(form: form, seq: seq, firstResponder: nil, fields: withheld))],
             state: { $0.fields = fields; $0.focus(nil) }, file: file, line: line)
    }
}
