/// The engine-wide limits (`EngineLimits`), checked before a command changes anything, so
/// a command that would exceed one throws `FormError.limitExceeded` and leaves the engine
/// exactly as it was. Messages name the limit and the flag that raises it; they give
/// lengths, never text, so a secure field's text cannot leak through them.
extension EngineLimits {
    /// A new form would join the `existing` ones.
    func checkNewForm(existing: Int, name: String) throws(FormError) {
        if existing >= maxForms {
            throw .limitExceeded(limit: "maxForms", message: "limit maxForms exceeded: cannot create form \(quoted(name)); the daemon holds \(existing) form\(existing == 1 ? "" : "s"), at most \(maxForms) (raise it with --max-forms)")
        }
    }

    /// Form `form` would hold `count` fields.
    func checkFields(_ count: Int, form: String) throws(FormError) {
        if count > maxFields {
            throw .limitExceeded(limit: "maxFields", message: "limit maxFields exceeded: form \(quoted(form)) would have \(count) fields, at most \(maxFields) (raise it with --max-fields)")
        }
    }

    /// The daemon would hold `count` fields in all forms once form `form` has its new ones.
    func checkTotalFields(_ count: Int, form: String) throws(FormError) {
        if count > maxTotalFields {
            throw .limitExceeded(limit: "maxTotalFields", message: "limit maxTotalFields exceeded: with form \(quoted(form)) the daemon would hold \(count) fields, at most \(maxTotalFields) in all forms (raise it with --max-total-fields)")
        }
    }

    /// Restored forms hold `bytes` of text (every field's text and initial text).
    func checkRestoredText(_ bytes: Int) throws(FormError) {
        if bytes > maxTotalText {
            throw .limitExceeded(limit: "maxTotalText", message: "limit maxTotalText exceeded: the saved forms hold \(bytes) bytes of text, at most \(maxTotalText) in all (raise it with --max-total-text)")
        }
    }

    /// Field `field` would hold `length` characters.
    func checkTextLength(_ length: Int, field: String) throws(FormError) {
        if length > maxTextLength {
            throw .limitExceeded(limit: "maxTextLength", message: "limit maxTextLength exceeded: field \(quoted(field)) would hold \(length) characters, at most \(maxTextLength) (raise it with --max-text-length)")
        }
    }

    /// The patterns a field resolved to, before either is first matched.
    func checkPatterns(_ attributes: FieldAttributes, field: String) throws(FormError) {
        for (key, pattern) in [("pattern", attributes.pattern), ("inputFilter", attributes.inputFilter)] {
            if let pattern, pattern.size > maxPatternSize {
                throw .limitExceeded(limit: "maxPatternSize", message: "limit maxPatternSize exceeded: the \(key) of field \(quoted(field)) compiles to \(pattern.sizeDescription) instructions, at most \(maxPatternSize) (raise it with --max-pattern-size)")
            }
        }
    }

    /// `text` as the whole text of `field`. Counting characters costs a pass over the
    /// text, so it is done only when the byte count (an upper bound) is over the limit.
    func checkText(_ text: String, field: String) throws(FormError) {
        if text.utf8.count <= maxTextLength { return }
        try checkTextLength(text.count, field: field)
    }

    /// A new or reconfigured field's initial text (what it starts with and resets to).
    func checkInitialText(of field: Field) throws(FormError) {
        try checkText(field.initialText, field: field.id)
    }
}

extension FormEngine {
    /// Fields in all forms.
    public var fieldCount: Int { storage.reduce(0) { $0 + $1.fields.count } }

    /// `maxTotalFields` for form `name` holding `count` fields in place of those it has,
    /// checked before any of them is built.
    mutating func checkTotalFields(_ count: Int, in name: String) throws(FormError) {
        let existing = formIndex(name).map { storage[$0].fields.count } ?? 0
        try limits.checkTotalFields(fieldCount - existing + count, form: name)
    }

    /// `maxTotalFields` for a command that adds fields: `defineForm` first of all, as
    /// `maxFields`; `addField` once its id and `after` are found good, as `maxFields`.
    @inline(__always)
    mutating func admitFields(_ command: FormCommand, on formName: String) throws(FormError) {
        switch command {
        case .defineForm(let specs, _):
            try checkTotalFields(specs.count, in: formName)
        case .addField(let spec, let after):
            guard let f = formIndex(formName), (try? storage[f].lookUp(spec.id)) == nil,
                  after.map({ (try? storage[f].lookUp($0)) != nil }) ?? true else { return }
            try checkTotalFields(storage[f].fields.count + 1, in: formName)
        default:
            return
        }
    }
}

extension Form {
    /// The text limit for putting `text` in place of field `i`'s selection (`insertText`,
    /// `paste`), checked once the field is found and before its filters, so a refused edit
    /// emits nothing. (`setText` checks its whole text with `EngineLimits.checkText`; field
    /// specs are checked where they are built.)
    /// Mutating (it changes nothing) as `refusal` is, and the buffer read in place.
    mutating func checkInsertion(_ i: Int, _ text: String) throws(FormError) {
        // The length after the edit is at most the length now plus one character per byte.
        if fields[i].buffer.length + text.utf8.count <= limits.maxTextLength { return }
        let b = fields[i].buffer
        try limits.checkTextLength(length(of: i, replacing: b.lower, b.upper, with: text), field: fields[i].id)
    }

    /// Characters in field `i` once `lo..<hi` is replaced by `s`. Counts only a window of
    /// one character each side, where clusters can merge, as the `maxLength` filter does.
    func length(of i: Int, replacing lo: Cursor, _ hi: Cursor, with s: String) -> Int {
        let b = fields[i].buffer
        let from = b.before(lo), to = b.after(hi)
        let window = String(b.text[from.index..<lo.index]) + s + String(b.text[hi.index..<to.index])
        return b.length - (to.offset - from.offset) + window.count
    }
}
