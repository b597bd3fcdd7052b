/// `maxTotalText`: the text all forms hold together is bounded, so that no command, however
/// small its line, can make the daemon hold more (a preset's text given to thousands of
/// fields, a form defined over and over).
///
/// Each command is admitted on an upper bound of the text it can add, computed from the
/// command before anything changes: the bytes it inserts, the text of the fields it
/// defines (their own or their presets'), the text an undo puts back. The engine keeps
/// `heldTextBound`, at least what it holds, and recounts exactly (one pass over the
/// fields) only when the bound says a command might not fit.
extension FormEngine {
    /// UTF-8 bytes of text held: every field's text plus its initial text.
    public var heldTextBytes: Int { storage.reduce(0) { $0 + $1.heldTextBytes } }

    /// The most text `command` can add; throws `limitExceeded` when that would not fit.
    /// Near the budget the bound and the growth are made exact: a command that replaces
    /// text by as much or less is never refused.
    mutating func admitText(_ command: FormCommand, on formName: String) throws(FormError) -> Int {
        var growth = textGrowth(command, on: formName, exact: false)
        if growth == 0 || heldTextBound + growth <= limits.maxTotalText { return growth }
        heldTextBound = heldTextBytes
        growth = textGrowth(command, on: formName, exact: true)
        if heldTextBound + growth <= limits.maxTotalText { return growth }
        throw .limitExceeded(limit: "maxTotalText", message: "limit maxTotalText exceeded: this command would add \(growth) bytes of text, more than the forms have room for (at most \(limits.maxTotalText) in all; raise it with --max-total-text)")
    }

    /// With `exact: false` an upper bound read from the command alone where possible.
    private mutating func textGrowth(_ command: FormCommand, on formName: String, exact: Bool) -> Int {
        switch command {
        case .setText(_, let text), .insertText(_, let text), .editAction(_, .paste, let text?):
            if !exact { return text.utf8.count }
        case .defineForm(let specs, let presets):
            let library = PresetLibrary.builtIn.adding(presets)
            return specs.reduce(0) { $0 + 2 * library.initialTextBound(of: $1) }
        default:
            break
        }
        // The rest depend on the form as it is; one that does not resolve adds nothing
        // (the command fails on it).
        guard let i = formIndex(formName) else { return 0 }
        return storage[i].textGrowth(command)
    }
}

extension Form {
    /// UTF-8 bytes of text this form holds: every field's text plus its initial text.
    var heldTextBytes: Int {
        fields.reduce(0) { $0 + $1.text.utf8.count + $1.initialText.utf8.count }
    }

    /// The most text `command` can add to this form. Mutating (it changes nothing) so that
    /// it runs on the form where it lies: read through the engine's array, the form was
    /// copied first, for every command.
    mutating func textGrowth(_ command: FormCommand) -> Int {
        switch command {
        case .setText(let id, let text):
            guard let i = try? index(of: id) else { return 0 }
            return max(0, text.utf8.count - fields[i].text.utf8.count)
        case .insertText(let id, let text), .editAction(let id, .paste, let text?):
            guard let i = try? target(id) else { return 0 }
            let b = fields[i].buffer
            return max(0, text.utf8.count - (b.utf8Offset(b.upper.index) - b.utf8Offset(b.lower.index)))
        case .addField(let spec, _):
            return 2 * presets.initialTextBound(of: spec)
        case .configureField(let id, let options, let configuration):
            guard let i = try? index(of: id) else { return 0 }
            var spec = fields[i].spec
            spec.options = spec.options.overlaid(with: options)
            if let configuration { spec.configuration = configuration }
            // A new initial text, and the same again as the text it replaces.
            return max(0, 2 * presets.initialTextBound(of: spec) - fields[i].text.utf8.count - fields[i].initialText.utf8.count)
        case .undo(let id):
            guard let i = try? target(id) else { return 0 }
            return max(0, fields[i].history.undoGrowth)
        case .redo(let id):
            guard let i = try? target(id) else { return 0 }
            return max(0, fields[i].history.redoGrowth)
        case .reset:
            return fields.reduce(0) { $0 + max(0, $1.initialText.utf8.count - $1.text.utf8.count) }
        default:
            return 0
        }
    }
}

extension PresetLibrary {
    /// At least the bytes of the initial text `spec` resolves to: its own, or the longest
    /// among its presets'.
    func initialTextBound(of spec: FieldSpec) -> Int {
        if let text = spec.options.text { return text.utf8.count }
        return spec.configuration.reduce(0) { max($0, presets[$1]?.text?.utf8.count ?? 0) }
    }
}
