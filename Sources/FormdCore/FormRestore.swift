/// A field as `--state` saved it: enough to rebuild it exactly, except its undo history.
public struct PersistedField: Equatable, Sendable {
    public var spec: FieldSpec
    public var text: String
    /// Selection ends as UTF-8 byte offsets into `text`; an offset inside a character
    /// is moved back to the character's start.
    public var anchorUTF8: Int
    public var headUTF8: Int
    public var demand: Demand?
    public var visited: Bool
    public var touched: Bool
    public var restoredWithoutSecret: Bool

    public init(spec: FieldSpec, text: String, anchorUTF8: Int, headUTF8: Int, demand: Demand? = nil,
                visited: Bool = false, touched: Bool = false, restoredWithoutSecret: Bool = false) {
        self.spec = spec
        self.text = text
        self.anchorUTF8 = anchorUTF8
        self.headUTF8 = headUTF8
        self.demand = demand
        self.visited = visited
        self.touched = touched
        self.restoredWithoutSecret = restoredWithoutSecret
    }
}

/// A form as `--state` saved it.
public struct PersistedForm: Equatable, Sendable {
    public var name: String
    /// The number of the last event the form emitted; the next one continues from it.
    public var seq: Int
    /// The form's own presets, on top of the built-ins (`PresetLibrary.builtIn`); one
    /// with a built-in's name replaces it.
    public var presets: [String: FieldOptions]
    public var fields: [PersistedField]
    public var responder: String?
    public var pendingBecome: String?

    public init(name: String, seq: Int, presets: [String: FieldOptions], fields: [PersistedField],
                responder: String?, pendingBecome: String?) {
        self.name = name
        self.seq = seq
        self.presets = presets
        self.fields = fields
        self.responder = responder
        self.pendingBecome = pendingBecome
    }
}

extension Form {
    /// Rebuilds a saved form. Fails (changing nothing) when the saved state does not hold
    /// together: a spec that no longer resolves, a duplicate id, a responder or pending
    /// demand naming no field, a selection outside the text.
    public init(restoring saved: PersistedForm, limits: EngineLimits = EngineLimits()) throws(FormError) {
        self.init(name: saved.name, limits: limits)
        presets = PresetLibrary.builtIn.adding(saved.presets)
        var seen = Set<String>()
        var restored: [Field] = []
        restored.reserveCapacity(saved.fields.count)
        for p in saved.fields {
            guard seen.insert(p.spec.id).inserted else {
                throw .invalidParams("duplicate field id \(quoted(p.spec.id)) in saved form \(quoted(saved.name))")
            }
            restored.append(try Field(restoring: p, presets: presets, limits: limits))
        }
        replaceFields(restored)
        if let id = saved.responder { responder = try lookUp(id) }
        if let id = saved.pendingBecome { pendingBecome = try lookUp(id) }
        guard saved.seq >= 0 else { throw .invalidParams("saved form \(quoted(saved.name)) has a negative seq") }
        seq = saved.seq
    }
}

extension Field {
    init(restoring p: PersistedField, presets: PresetLibrary, limits: EngineLimits) throws(FormError) {
        try self.init(spec: p.spec, presets: presets, limits: limits)
        let bytes = p.text.utf8.count
        guard (0...bytes).contains(p.anchorUTF8), (0...bytes).contains(p.headUTF8) else {
            throw .invalidParams("saved selection of field \(quoted(p.spec.id)) lies outside its text")
        }
        var b = TextBuffer(p.text)
        b.select(anchor: b.cursor(utf8: p.anchorUTF8), head: b.cursor(utf8: p.headUTF8))
        buffer = b
        demand = p.demand
        visited = p.visited
        touched = p.touched
        restoredWithoutSecret = p.restoredWithoutSecret
        revalidate()
    }
}

extension FormEngine {
    /// An engine holding exactly the saved forms (and an empty default form if they
    /// have none). Undo histories start empty. Saved state over `maxForms`, `maxFields`
    /// or `maxTotalFields` (a daemon restarted with lower limits) fails, counted before
    /// any field is built; over `maxTotalText`, once the texts are resolved.
    public init(limits: EngineLimits = EngineLimits(), restoring saved: [PersistedForm]) throws(FormError) {
        self.init(limits: limits)
        let forms = saved.count + (saved.contains { $0.name == FormEngine.defaultForm } ? 0 : 1)
        if let last = saved.last, forms > limits.maxForms {
            try limits.checkNewForm(existing: limits.maxForms, name: last.name)
        }
        var total = 0
        for p in saved {
            try limits.checkFields(p.fields.count, form: p.name)
            total += p.fields.count
            try limits.checkTotalFields(total, form: p.name)
        }
        var names = Set<String>()
        for p in saved {
            guard names.insert(p.name).inserted else { throw .invalidParams("form \(quoted(p.name)) is saved twice") }
            install(try Form(restoring: p, limits: limits))
        }
        try limits.checkRestoredText(heldText)
    }
}
