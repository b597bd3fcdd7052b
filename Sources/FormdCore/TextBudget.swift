/// `maxTotalText`: the text all forms hold together is bounded, so that no command, however
/// small its line, can make the daemon hold more (a preset's text given to thousands of
/// fields, a form defined over and over).
///
/// Each command is admitted on an upper bound of the text it can add, computed from the
/// command before anything changes: the bytes it inserts, the text of the fields it
/// defines (their own or their presets') and the strings that describe them (ids, labels,
/// placeholders, pattern hints, hints, counted once per field that gets them), the text an
/// undo puts back.
///
/// The engine keeps `heldText`, exactly what it holds, by adding up what each command
/// changed, at a cost proportional to what it touched: edits tally the bytes they replace
/// (`Form.replaceText`, into `Form.textTally`, added up by `settleTallies`); commands that
/// build, drop or re-resolve fields (`defineForm`, `reset`, `addField`, `removeField`, the
/// `configureField` family) have the fields they touch counted before and after them
/// (`touchedText`). So no
/// command, however near the budget, makes the engine visit fields it did not touch.
extension FormEngine {
    /// UTF-8 bytes of text held: every field's text, initial text, id, label, placeholder,
    /// pattern hint and hints, counted over every field from its attributes (the oracle of
    /// tests and the fuzzer; the engine keeps `heldText`).
    public var heldTextBytes: Int {
        storage.reduce(0) { held, form in
            form.fields.reduce(held) {
                $0 + $1.text.utf8.count + $1.initialText.utf8.count + $1.id.utf8.count + $1.attributes.describingTextBytes
            }
        }
    }

    /// `heldText`, for tests and the fuzzer to hold against `heldTextBytes`.
    public var countedTextBytes: Int { heldText }

    /// Throws `limitExceeded` when the most text `command` can add to form `f` (nil while it
    /// does not exist) would not fit.
    mutating func admitText(_ command: FormCommand, form f: Int?) throws(FormError) {
        try limits.admitText(command, heldText: heldText) { f.map { storage[$0].textGrowth(command) } ?? 0 }
    }
}

extension EngineLimits {
    /// Throws `limitExceeded` when the most text `command` can add would not fit beside the
    /// `heldText` bytes held. Near the budget the growth is made exact: a command that
    /// replaces text by as much or less is never refused. `formGrowth` is the exact growth
    /// on the form as it is (0 for one that does not exist: the command fails on it), asked
    /// only when the command alone does not tell.
    @inline(__always)
    func admitText(_ command: FormCommand, heldText: Int, formGrowth: () -> Int) throws(FormError) {
        var growth = command.textGrowth(exact: false) ?? formGrowth()
        if growth == 0 || heldText + growth <= maxTotalText { return }
        growth = command.textGrowth(exact: true) ?? formGrowth()
        if heldText + growth <= maxTotalText { return }
        throw .limitExceeded(limit: "maxTotalText", message: "limit maxTotalText exceeded: this command would add \(growth) bytes of text, more than the forms have room for (at most \(maxTotalText) in all; raise it with --max-total-text)")
    }
}

extension FormCommand {
    /// The most text the command can add, read from the command alone, or nil when that
    /// depends on the form (`Form.textGrowth`). With `exact: false` an upper bound where
    /// the command alone gives one.
    @inline(__always)
    func textGrowth(exact: Bool) -> Int? {
        if addsNoText { return 0 }
        switch self {
        case .setText(_, let text), .insertText(_, let text), .editAction(_, .paste, let text?):
            return exact ? nil : text.utf8.count
        case .defineForm(let specs, let presets):
            let library = PresetLibrary.builtIn.adding(presets)
            // Each spec read where it lies through a pointer, never written through (read out of
            // the array or a buffer pointer, each was copied, and the copy released).
            return specs.withUnsafeBufferPointer { specs in
                guard let base = specs.baseAddress else { return 0 }
                let spec = UnsafeMutablePointer(mutating: base)
                var bound = 0
                for i in specs.indices { bound += library.textBound(of: &spec[i]) }
                return bound
            }
        default:
            return nil
        }
    }
}

extension FormEngine {
    /// For a command that builds, drops or re-resolves fields, the text held outside the
    /// fields it touches, counted before it runs (`countTouchedText` adds them back after
    /// it); nil for a command that only edits texts (`settleTallies` adds what it tallied).
    mutating func textUntouched(_ command: FormCommand, form f: Int?) -> Int? {
        touchedText(command, form: f).map { heldText - $0 }
    }

    /// The text held now: what lay outside the fields `command` touched, and those fields.
    mutating func countTouchedText(_ command: FormCommand, on formName: String, untouched: Int) {
        let f = formIndex(formName)
        heldText = untouched + (touchedText(command, form: f) ?? 0)
        if let f { storage[f].textTally = TextTally() }
    }

    /// The bytes of text held by the fields `command` builds, drops or re-resolves: the
    /// whole form for `defineForm` and `reset`, else the one field it names (none if it
    /// does not exist); nil for any other command. `f` is the form's position, nil while it
    /// does not exist.
    mutating func touchedText(_ command: FormCommand, form f: Int?) -> Int? {
        let id: String
        switch command {
        case .defineForm, .reset:
            guard let f else { return 0 }
            return storage[f].heldTextBytes
        case .addField(let spec, _):
            id = spec.id
        case .removeField(let field), .configureField(let field, _, _), .setEnabled(let field, _),
             .setSecure(let field, _), .setRevealed(let field, _):
            id = field
        default:
            return nil
        }
        guard let f, let i = try? storage[f].lookUp(id) else { return 0 }
        return storage[f].fields[i].heldTextBytes
    }
}

/// A form's change in the bytes of text it holds, from the edits of the command being
/// carried out. Bookkeeping, not part of the form's value.
struct TextTally: Equatable, Sendable {
    var growth = 0

    static func == (_: TextTally, _: TextTally) -> Bool { true }
}

extension Field {
    /// UTF-8 bytes of text this field holds: its text, its initial text and the strings
    /// that describe it. A mutating getter (it changes nothing) so that it reads the field
    /// where it lies.
    var heldTextBytes: Int {
        mutating get { text.utf8.count + initialText.utf8.count + describingTextBytes }
    }
}

extension Form {
    /// `Field.replace` on field `i`, the change in its bytes tallied for the engine.
    mutating func replaceText(_ i: Int, _ lo: Cursor, _ hi: Cursor, with s: String,
                              kind: EditHistory.Kind?) -> (CharacterChange, Bool) {
        let before = fields[i].buffer.text.utf8.count
        let result = fields[i].replace(lo, hi, with: s, kind: kind, log: &undoLog)
        textTally.growth += fields[i].buffer.text.utf8.count - before
        return result
    }

    /// UTF-8 bytes of text this form holds: every field's `heldTextBytes`, each read where it
    /// lies through a pointer, never written through (read out of the array or a buffer
    /// pointer, each field was copied whole, and the copy released).
    var heldTextBytes: Int {
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return 0 }
            let field = UnsafeMutablePointer(mutating: base)
            var bytes = 0
            for i in fields.indices { bytes += field[i].heldTextBytes }
            return bytes
        }
    }

    /// The most text `command` can add to this form. Mutating (it changes nothing) so that
    /// it runs on the form where it lies: read through the engine's array, the form was
    /// copied first, for every command.
    mutating func textGrowth(_ command: FormCommand) -> Int {
        switch command {
        case .setText(let id, let text):
            guard let i = try? lookUp(id) else { return 0 }
            return max(0, text.utf8.count - fields[i].text.utf8.count)
        case .insertText(let id, let text), .editAction(let id, .paste, let text?):
            guard let i = try? target(id) else { return 0 }
            let b = fields[i].buffer
            return max(0, text.utf8.count - (b.utf8Offset(b.upper.index) - b.utf8Offset(b.lower.index)))
        case .addField(let spec, _):
            var spec = spec
            return presets.textBound(of: &spec)
        case .configureField(let id, let options, let configuration):
            guard let i = try? lookUp(id) else { return 0 }
            var spec = fields[i].spec
            spec.options = spec.options.overlaid(with: options)
            if let configuration { spec.configuration = configuration }
            // Resolved as the field will be, so that a change that lengthens nothing is never
            // refused; one that does not resolve adds nothing (the command fails on it).
            guard let resolved = try? presets.resolve(configuration: spec.configuration, own: spec.options) else { return 0 }
            let describing = FieldAttributes(resolving: resolved).describingTextBytes - fields[i].attributes.describingTextBytes
            // A new initial text, and the same again as the text it replaces.
            let text = max(0, 2 * (resolved.text?.utf8.count ?? 0) - fields[i].text.utf8.count - fields[i].initialText.utf8.count)
            return max(0, text + describing)
        case .undo(let id):
            guard let i = try? target(id) else { return 0 }
            return max(0, undoLog.undoGrowth(of: fields[i].history))
        case .redo(let id):
            guard let i = try? target(id) else { return 0 }
            return max(0, undoLog.redoGrowth(of: fields[i].history))
        case .reset:
            return fields.reduce(0) { $0 + max(0, $1.initialText.utf8.count - $1.text.utf8.count) }
        default:
            return 0
        }
    }
}

extension FormCommand {
    /// Whether the command builds, drops or re-resolves fields: only such a command has fields
    /// to admit (`admitFields`) and text held to recount (`touchedText`). Every case is listed:
    /// a new command must say.
    var rebuildsFields: Bool {
        switch self {
        case .defineForm, .addField, .removeField, .configureField, .setEnabled, .setSecure, .setRevealed, .reset:
            true
        case .setText, .insertText, .delete, .select, .moveCaret, .editAction, .undo, .redo, .pressReturn,
             .demandFocus, .focusNext, .focusPrevious, .getState, .validate, .submit:
            false
        }
    }

    /// Whether the command adds no text whatever the form holds (`Form.textGrowth` is 0
    /// for it), so admitting it needs no look at the form. Every case is listed: a new
    /// command must say.
    var addsNoText: Bool {
        switch self {
        case .delete, .select, .moveCaret, .pressReturn, .demandFocus, .focusNext, .focusPrevious,
             .setEnabled, .setSecure, .setRevealed, .getState, .validate, .submit, .removeField:
            true
        case .editAction(_, let action, let text):
            action != .paste || text == nil
        case .defineForm, .addField, .configureField, .setText, .insertText, .undo, .redo, .reset:
            false
        }
    }
}

extension PresetLibrary {
    /// At least the bytes a field built from `spec` holds: twice its initial text (its own,
    /// or the longest among its presets': the text and the initial text), its id, and the
    /// describing strings it gives itself and those of every preset it lists. `inout` only
    /// so that the spec is read where it lies (never written).
    func textBound(of spec: inout FieldSpec) -> Int {
        var presetText = 0, describing = spec.id.utf8.count + spec.options.describingTextBytes
        for name in spec.configuration {
            guard let preset = presets[name] else { continue }
            presetText = max(presetText, preset.text?.utf8.count ?? 0)
            describing += preset.describingTextBytes
        }
        return 2 * (spec.options.text?.utf8.count ?? presetText) + describing
    }
}

extension FieldOptions {
    /// UTF-8 bytes of the label, placeholder, pattern hint and hints these options set.
    var describingTextBytes: Int {
        (label??.utf8.count ?? 0) + (placeholder??.utf8.count ?? 0) + (patternHint??.utf8.count ?? 0)
            + (hints?.textBytes ?? 0)
    }
}

extension FieldAttributes {
    /// UTF-8 bytes of the resolved label, placeholder, pattern hint and hints.
    var describingTextBytes: Int {
        (label?.utf8.count ?? 0) + (placeholder?.utf8.count ?? 0) + (patternHint?.utf8.count ?? 0) + hints.textBytes
    }
}

extension FieldHints {
    /// UTF-8 bytes of every key and value's JSON text.
    var textBytes: Int { members.reduce(0) { $0 + $1.key.utf8.count + $1.json.utf8.count } }
}
