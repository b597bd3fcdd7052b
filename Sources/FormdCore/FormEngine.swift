/// The form engine: every form a daemon holds, and the one function that changes them.
///
/// A value type with no I/O, clock or globals: `perform` is the reducer
/// `(state, command) -> (state, result, [event])`. A command that throws has changed
/// nothing, because every check that can fail runs before the first mutation.
public struct FormEngine: Equatable, Sendable {
    /// Computed, not stored: a stored static is reached through a lazy-initialization check
    /// on every access, and this is read for nearly every command and event.
    public static var defaultForm: String { "default" }

    /// Forms in creation order, found by name through `indexByName`: an array element is
    /// mutated in place, where a dictionary value would be moved out and back per command.
    var storage: [Form]
    private var indexByName: [String: Int]
    /// The form the last command went to: commands come in runs on one form, and a name
    /// compare is far cheaper than hashing it. Not part of the engine's value (`==`).
    private var lastForm = 0
    public let limits: EngineLimits
    /// The bytes of text all forms hold, kept exact command by command (`TextBudget.swift`).
    var heldText = 0
    /// The undo and redo steps of every field (`UndoLog.swift`, `HistoryBudget.swift`); lent
    /// to the form a command goes to while it is carried out.
    var undoLog: UndoLog
    /// Whether `textChanged` events carry their field's text; each form holds it too, a
    /// new form from its engine (`setEventTexts`).
    @usableFromInline var eventTexts = true

    public static func == (a: FormEngine, b: FormEngine) -> Bool {
        a.storage == b.storage && a.limits == b.limits && a.undoLog == b.undoLog
    }

    public init(limits: EngineLimits = EngineLimits()) { self.init(limits: limits, compactionFloor: 4096) }

    /// `compactionFloor`: the fewest records the history log holds before it compacts
    /// (`UndoLog.compact`); tests set it low to compact often.
    init(limits: EngineLimits, compactionFloor: Int) {
        self.limits = limits
        undoLog = UndoLog(limit: limits.maxUndoSteps, compactionFloor: compactionFloor)
        storage = [Form(name: FormEngine.defaultForm, limits: limits)]
        indexByName = [FormEngine.defaultForm: 0]
    }

    /// Every form by name (a copy: for tests and snapshots, not the hot path).
    public var forms: [String: Form] {
        Dictionary(uniqueKeysWithValues: storage.map { ($0.name, $0) })
    }

    public func form(_ name: String) -> Form? { indexByName[name].map { storage[$0] } }

    /// Defines form `name` before any client is connected: like `defineForm`, but with no
    /// `formDefined` event, so a large form file is loaded without a second copy of it.
    /// `spec(i)` gives field i; a form file decodes each as it is needed.
    public mutating func load(count: Int, presets: [String: FieldOptions], into name: String = FormEngine.defaultForm,
                              spec: (Int) throws(FormError) -> FieldSpec) throws(FormError) {
        try checkTotalFields(count, in: name)
        var form = self.form(name) ?? Form(name: name, limits: limits)
        try form.define(count: count, presets: presets, announce: false) { i, build throws(FormError) in try build(try spec(i)) }
        install(form)
    }

    /// Puts `form` in, replacing a form of the same name (restoring saved state).
    mutating func install(_ form: Form) {
        let i = indexByName[form.name] ?? storage.count
        heldText += form.heldTextBytes - (i < storage.count ? storage[i].heldTextBytes : 0)
        if i < storage.count {
            storage[i] = form
        } else {
            indexByName[form.name] = storage.count
            storage.append(form)
        }
        storage[i].textTally = TextTally()
    }

    /// Carries out `command` on form `formName`. Positions in the command, its result and
    /// its events count in `encoding`. The events are appended to `events`, so a caller
    /// can reuse one buffer for every command.
    public mutating func perform(_ command: FormCommand, on formName: String = FormEngine.defaultForm,
                                 encoding: PositionEncoding = .character,
                                 events: inout [EventRecord]) throws(FormError) -> CommandResult {
        let lent = formIndex(formName)
        if let f = lent, !command.rebuildsFields {
            // Every keystroke: no field count to admit, no text to recount, the form reached
            // once, in place.
            let result = try Self.performEdit(command, on: &storage[f], log: &undoLog, heldText: heldText,
                                              encoding: encoding, events: &events)
            settleTallies(of: f)
            trimHistory()
            compactHistory()
            return result
        }
        let result: CommandResult
        do {
            // The form holds the log while the command is admitted and carried out.
            if let f = lent { swap(&undoLog, &storage[f].undoLog) }
            defer { if let f = lent { swap(&undoLog, &storage[f].undoLog) } }
            try admitFields(command, on: formName)
            try admitText(command, form: lent)
            let untouched = textUntouched(command, form: lent)
            result = try performAdmitted(command, on: formName, form: lent, encoding: encoding, events: &events)
            if let untouched { countTouchedText(command, on: formName, untouched: untouched) }
        }
        trimHistory()
        compactHistory()
        return result
    }

    /// A command that builds, drops and re-resolves no field, admitted and carried out on
    /// `form`, which holds `log` meanwhile; `heldText` is the text all forms hold.
    @inline(__always)
    private static func performEdit(_ command: FormCommand, on form: inout Form, log: inout UndoLog, heldText: Int,
                                    encoding: PositionEncoding, events: inout [EventRecord]) throws(FormError) -> CommandResult {
        swap(&log, &form.undoLog)
        defer { swap(&log, &form.undoLog) }
        try form.limits.admitText(command, heldText: heldText) { form.textGrowth(command) }
        return try form.perform(command, encoding: encoding, events: &events)
    }

    /// `command` admitted, on form `lent` (`formName`'s position, nil while it does not exist).
    private mutating func performAdmitted(_ command: FormCommand, on formName: String, form lent: Int?,
                                          encoding: PositionEncoding, events: inout [EventRecord]) throws(FormError) -> CommandResult {
        guard let i = lent else {
            guard command.createsForm else { throw .unknownForm(formName) }
            try limits.checkNewForm(existing: storage.count, name: formName)
            // A new form joins the engine only once its definition has succeeded.
            var form = Form(name: formName, limits: limits)
            form.eventTexts.on = eventTexts
            swap(&undoLog, &form.undoLog)
            let result: CommandResult
            do {
                defer { swap(&undoLog, &form.undoLog) }
                result = try form.perform(command, encoding: encoding, events: &events)
            }
            indexByName[formName] = storage.count
            storage.append(form)
            return result
        }
        let result = try storage[i].perform(command, encoding: encoding, events: &events)
        settleTallies(of: i)
        return result
    }

    /// The position of form `name`, or nil. Inlined: nearly every command goes to the form
    /// the last one went to, a compare of two names.
    @inline(__always)
    mutating func formIndex(_ name: String) -> Int? {
        if lastForm < storage.count && storage[lastForm].name == name { return lastForm }
        return formIndexByName(name)
    }

    private mutating func formIndexByName(_ name: String) -> Int? {
        guard let i = indexByName[name] else { return nil }
        lastForm = i
        return i
    }

    /// Whether some form holds so many fields that looking one up misses the cache: only
    /// then does a lookup prepared ahead (`prefetchSlot(field:on:)`) pay for what it costs.
    public var lookupsMissTheCache: Bool {
        for i in storage.indices where storage[i].fields.count >= 4096 { return true }
        return false
    }

    /// The first stage of a lookup prepared ahead (`Form.prefetchSlot(of:)`), for a command
    /// soon to name field `id` of form `formName`: nil when there is nothing to hint (a
    /// form that does not exist yet, an id the index cannot hint). Mutating only so that
    /// the form is reached in place: a non-mutating call copies it whole.
    public mutating func prefetchSlot(field id: String, on formName: String) -> LookupHint? {
        guard let f = lastForm < storage.count && storage[lastForm].name == formName ? lastForm : indexByName[formName],
              let hash = storage[f].prefetchSlot(of: id) else { return nil }
        return LookupHint(form: f, hash: hash)
    }

    /// The second stage, a command later (`Form.prefetchField(hash:)`). Whatever changed
    /// since the first, it reads nothing out of bounds: a hint only.
    public mutating func prefetchField(_ hint: LookupHint) {
        guard hint.form < storage.count else { return }
        storage[hint.form].prefetchField(hash: hint.hash)
    }

    /// `perform` with a fresh event list, returned with the result.
    public mutating func perform(_ command: FormCommand, on formName: String = FormEngine.defaultForm,
                                 encoding: PositionEncoding = .character) throws(FormError) -> CommandOutcome {
        var events: [EventRecord] = []
        let result = try perform(command, on: formName, encoding: encoding, events: &events)
        return CommandOutcome(result: result, events: events)
    }
}

extension Form {
    /// Carries out `command` with positions counted in `encoding`, its events landing in
    /// the caller's buffer. The encoding is the command's, not the form's: it is put back
    /// afterwards, so a read (`getState`) or a command that throws leaves the form exactly
    /// as it was, whichever client sent it.
    mutating func perform(_ command: FormCommand, encoding: PositionEncoding, events: inout [EventRecord]) throws(FormError) -> CommandResult {
        let previous = self.encoding
        self.encoding = encoding
        swap(&outbox, &events)
        defer {
            swap(&outbox, &events)
            self.encoding = previous
        }
        return try perform(command)
    }

    /// Dispatches one command. Lookups and checks that throw come first in every case.
    mutating func perform(_ command: FormCommand) throws(FormError) -> CommandResult {
        let result: CommandResult
        switch command {
        case .defineForm(let specs, let presets):
            try define(specs, presets: presets)
            result = .done
        case .addField(let spec, let after):
            try add(spec, after: after)
            result = .done
        case .removeField(let id):
            remove(try lookUp(id))
            result = .done
        case .configureField(let id, let options, let configuration):
            try configure(try lookUp(id), options: options, configuration: configuration)
            result = .done
        case .setEnabled(let id, let on):
            try configure(try lookUp(id), options: FieldOptions(\.enabled, on), configuration: nil)
            result = .done
        case .setSecure(let id, let on):
            try configure(try lookUp(id), options: FieldOptions(\.secure, on), configuration: nil)
            result = .done
        case .setRevealed(let id, let on):
            try configure(try lookUp(id), options: FieldOptions(\.revealed, on), configuration: nil)
            result = .done
        case .setText(let id, let text):
            try limits.checkText(text, field: id)
            result = setText(try lookUp(id), text)
        case .insertText(let id, let text):
            let i = try target(id)
            try checkInsertion(i, text)
            result = insertText(i, text)
        case .delete(let id, let direction, let unit):
            result = delete(try target(id), direction: direction, unit: unit)
        case .select(let id, let start, let end):
            result = try select(try target(id), start: start, end: end)
        case .moveCaret(let id, let to, let extend):
            result = moveCaret(try target(id), to: to, extend: extend)
        case .editAction(let id, let action, let text):
            let i = try target(id)
            if action == .paste, let text { try checkInsertion(i, text) }
            result = editAction(i, action, text: text)
        case .undo(let id):
            result = undo(try target(id))
        case .redo(let id):
            result = redo(try target(id))
        case .pressReturn(let id):
            result = pressReturn(try target(id))
        case .demandFocus(let id, let demand):
            result = .demand(demandFocus(try lookUp(id), demand))
        case .focusNext, .focusPrevious:
            let step = command == .focusNext ? 1 : -1
            let before = responder
            if let next = cyclicFocusable(step: step) { moveFocus(to: next) }
            result = .focus(firstResponder: firstResponderID, moved: responder != before)
        case .getState(let includeSecrets):
            return .state(snapshot(includeSecrets: includeSecrets))
        case .validate:
            let errors = invalidFields()
            return .validation(valid: errors.isEmpty, errors: errors)
        case .submit(let includeSecrets):
            result = submit(includeSecrets: includeSecrets)
        case .reset:
            reset()
            result = .done
        }
        retryPendingDemand()
        return result
    }
}

/// A lookup prepared ahead: its form's position and the field id's hash
/// (`FormEngine.prefetchSlot(field:on:)`).
public struct LookupHint: Sendable {
    let form: Int
    let hash: UInt32
}
