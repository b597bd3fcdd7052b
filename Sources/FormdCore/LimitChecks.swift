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

extension Form {
    /// The text limit for putting `text` in place of field `i`'s selection (`insertText`,
    /// `paste`), checked once the field is found and before its filters, so a refused edit
    /// emits nothing. (`setText` checks its whole text with `EngineLimits.checkText`; field
    /// specs are checked where they are built.)
    func checkInsertion(_ i: Int, _ text: String) throws(FormError) {
        let b = fields[i].buffer
        // The length after the edit is at most the length now plus one character per byte.
        if b.length + text.utf8.count <= limits.maxTextLength { return }
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
