/// Defining a form and changing its fields' configuration.
extension Form {
    /// Replaces every field. Ids must be unique; every spec must resolve. `announce: false`
    /// skips the `formDefined` event (and the whole-form snapshot it carries) when nobody
    /// can be listening yet: loading a form file before the first client.
    mutating func define(_ specs: [FieldSpec], presets custom: [String: FieldOptions], announce: Bool = true) throws(FormError) {
        try define(count: specs.count, presets: custom, announce: announce) { i, build throws(FormError) in try build(specs[i]) }
    }

    /// `define` over specs produced one at a time, so a large form file never holds all
    /// of its specs at once: each is built into its field and dropped. `spec(i, build)`
    /// hands spec i to `build`, borrowed.
    mutating func define(count: Int, presets custom: [String: FieldOptions], announce: Bool,
                         spec: (Int, (borrowing FieldSpec) throws(FormError) -> Void) throws(FormError) -> Void) throws(FormError) {
        let library = PresetLibrary.builtIn.adding(custom)
        try limits.checkFields(count, form: name)
        var index = FieldIndex()
        index.reserveCapacity(count)
        var newFields: [Field] = []
        newFields.reserveCapacity(count)
        let limits = self.limits
        for i in 0..<count {
            try spec(i) { spec throws(FormError) in
                guard newFields.withUnsafeBufferPointer({ built in index.append(spec.id, idAt: { built[$0].id }) }) else {
                    throw .invalidParams("duplicate field id \(quoted(spec.id)); ids must be unique in a form")
                }
                // Fields configured like the one before share its configuration object
                // (read in place: `last` would copy the whole field).
                let field = try Field(spec: spec, presets: library, limits: limits,
                                      sharing: newFields.isEmpty ? nil : newFields[newFields.count - 1].sharedConfiguration)
                try limits.checkInitialText(of: field)
                newFields.append(field)
            }
        }
        presets = library
        replaceFields(newFields, index: index)
        if announce { emitState { .formDefined($0) } }
    }

    /// Adds a field after `after` (or at the end).
    mutating func add(_ spec: FieldSpec, after: String?) throws(FormError) {
        if (try? lookUp(spec.id)) != nil {
            throw .invalidParams("field \(quoted(spec.id)) already exists in form \(quoted(name))")
        }
        let at = try after.map { id throws(FormError) in try lookUp(id) + 1 } ?? fields.count
        try limits.checkFields(fields.count + 1, form: name)
        // Configured like its new neighbour, it shares that field's configuration object.
        let neighbour = at > 0 ? at - 1 : 0
        let field = try Field(spec: spec, presets: presets, limits: limits,
                              sharing: fields.indices.contains(neighbour) ? fields[neighbour].sharedConfiguration : nil)
        try limits.checkInitialText(of: field)
        insertField(field, at: at)
        emit(.fieldAdded(fieldSnapshot(at, includeSecrets: false), index: at))
    }

    /// Rule 3: a removed responder resigns whatever `canResignFirstResponder` says; a pending demand on
    /// it is refused.
    mutating func remove(_ i: Int) {
        if pendingBecome == i { clearPending(outcome: .refused) }
        if responder == i { moveFocus(to: nil, force: true) }
        let id = fields[i].id
        removeField(at: i)
        emit(.fieldRemoved(field: id))
    }

    /// Applies new own keys (and optionally a new preset list) to field `i`, reporting
    /// every effective change. Disabling the responder makes it resign (rule 3).
    mutating func configure(_ i: Int, options: FieldOptions, configuration: [String]?) throws(FormError) {
        let old = fields[i]
        var spec = old.spec
        spec.options = spec.options.overlaid(with: options)
        if let configuration { spec.configuration = configuration }
        let new = try old.reconfigured(to: spec, presets: presets, limits: limits)
        if new.initialText != old.initialText { try limits.checkInitialText(of: new) }
        let keepsText = sameBytes(new.initialText, old.initialText)
        // Validity against a new pattern would tell what a hidden text (or one in its undo
        // history) holds.
        let newRulesForSecret = old.attributes.secure && new.attributes.secure
            && (new.attributes.pattern != old.attributes.pattern || new.attributes.inputFilter != old.attributes.inputFilter)
        if newRulesForSecret && keepsText && old.length > 0 {
            throw .invalidParams("field \(quoted(old.id)): a secure field's pattern and inputFilter can be changed only while it is empty (its validity would tell what the hidden text holds); clear it first, or give a new text in the same configureField")
        }
        fields[i] = new
        if newRulesForSecret { undoLog.forget(&fields[i].history) }

        // A new initial text goes in as an edit, so it has an undo step and a precise edit
        // (always in a masked field: whether it equals the hidden text is not told).
        var change: CharacterChange? = nil
        if !keepsText && (new.attributes.masksText || !sameBytes(new.initialText, new.text)) {
            change = replaceText(i, fields[i].buffer.start, fields[i].buffer.end, with: new.initialText,
                                 kind: newRulesForSecret ? nil : .other).0
        }
        let now = fields[i]
        var changes = FieldChanges(options: now.attributes.changes(since: old.attributes))
        if spec.configuration != old.spec.configuration { changes.configuration = spec.configuration }
        if now.attributes.masksText != old.attributes.masksText {
            changes.display = now.display
            changes.text = now.visibleText
            // Positions count over the display while masked: report the selection only
            // where that moves it (it does in utf-8, where a bullet is three bytes).
            let selection = now.buffer.selection(encoding, masked: now.attributes.masksText)
            if selection != old.buffer.selection(encoding, masked: old.attributes.masksText) {
                changes.selection = selection
            }
        }
        if !changes.isEmpty { emit(.fieldChanged(field: now.id, changes: changes)) }
        if let change { emitTextChanged(i, change) }
        if now.validity != old.validity { emit(.validityChanged(field: now.id, validity: now.validity)) }
        if responder == i && !now.attributes.enabled { moveFocus(to: nil, force: true) }
    }

    /// Every field back to its initial text, unvisited, untouched, no demands, no
    /// responder. One `formReset` carries the new state.
    mutating func reset() {
        for i in fields.indices {
            undoLog.forget(&fields[i].history)
            fields[i].resetToInitial()
        }
        responder = nil
        pendingBecome = nil
        emitState { .formReset($0) }
    }
}
