import FormdBytes

/// One form: fields in order, at most one first responder, and its event counter.
///
/// Fields live in an array (order matters for Return and focus moves) with an id → index
/// map beside it, so every per-field command finds its field in O(1). The map changes
/// only when fields are added or removed; appending a field costs O(1).
public struct Form: Equatable, Sendable {
    public let name: String
    /// Number of the last event emitted; +1 per event, never reset.
    public internal(set) var seq = 0
    public internal(set) var fields: [Field] = []
    private var indexByID = FieldIndex()
    /// Index of the first responder.
    public internal(set) var responder: Int? = nil
    /// Index of the one field whose `become` demand is pending, if any.
    var pendingBecome: Int? = nil
    var presets = PresetLibrary.builtIn
    let limits: EngineLimits
    /// How the client that sent the current command counts positions; set for the
    /// duration of each command (outside one, and in `snapshot`, it is `character`).
    var encoding = PositionEncoding.character
    /// Whether this form's `textChanged` events carry their field's text: the engine's
    /// (`FormEngine.setEventTexts`).
    var eventTexts = EventTextsSetting(true)
    /// Events emitted by the command being carried out; drained by the engine.
    var outbox: [EventRecord] = []
    /// The engine's undo log, lent to the form while a command is carried out (empty
    /// otherwise); its fields' histories are chains of its records (`UndoLog.swift`).
    var undoLog = UndoLog()
    /// What this command's edits changed in the text held (`TextBudget.swift`).
    var textTally = TextTally()

    public init(name: String, limits: EngineLimits = EngineLimits()) {
        self.name = name
        self.limits = limits
    }

    public var firstResponderID: String? { responder.map { fields[$0].id } }

    /// The index of field `id`, or the protocol's unknown-field error. The field found is
    /// fetched whole as its id is read: the command goes on to read the rest of it.
    /// (The ids are read through a buffer pointer: a closure capturing the form itself
    /// would copy it wherever the lookup is not wholly inlined.) Inlined in `lookUp`.
    @inline(__always)
    public func index(of id: String) throws(FormError) -> Int {
        let found = fields.withUnsafeBufferPointer { fields in
            indexByID.position(of: id, idAt: { p in
                CacheLines.prefetch(UnsafeRawPointer(fields.baseAddress! + p), count: MemoryLayout<Field>.size)
                return fields[p].id
            })
        }
        guard let i = found else { throw .unknownField(field: id, form: name) }
        undoLog.prefetchRecords(of: fields[i].history)
        return i
    }

    /// The first of two stages that prepare a lookup of field `id` a few commands ahead:
    /// the index's slot is asked for; the id's hash is returned for the second stage
    /// (`prefetchField(hash:)`), a command later. A hint only: nil for an id the index
    /// cannot hint. (Both stages are mutating only so that the engine reaches the form in
    /// place: a non-mutating call copies it whole.)
    @inline(__always)
    mutating func prefetchSlot(of id: String) -> UInt32? { indexByID.prefetchSlot(of: id) }

    /// The second stage: the field that the slot of `hash` names (now in the cache) is
    /// asked for, if any. A hint only; it changes nothing.
    @inline(__always)
    mutating func prefetchField(hash: UInt32) {
        guard let p = indexByID.likelyPosition(hash: hash), p >= 0, p < fields.count else { return }
        fields.withUnsafeBufferPointer { CacheLines.prefetch(UnsafeRawPointer($0.baseAddress! + p), count: MemoryLayout<Field>.size) }
    }

    /// `index(of:)` run on the form where it lies, for the engine's own lookups: mutating
    /// (it changes nothing) because a non-mutating method called from a mutating one (a
    /// command carried out) is handed a copy of the whole form.
    mutating func lookUp(_ id: String) throws(FormError) -> Int { try index(of: id) }

    /// `id`, or the first responder when `id` is nil. Mutating (it changes nothing) as
    /// `lookUp` is.
    mutating func target(_ id: String?) throws(FormError) -> Int {
        if let id { return try lookUp(id) }
        guard let r = responder else {
            throw .invalidParams("no field given and form \(quoted(name)) has no first responder; pass \"field\"")
        }
        return r
    }

    /// Takes the event (`consuming`) so it is stored without a copy (PERFORMANCE.md).
    mutating func emit(_ event: consuming FormEvent) {
        seq += 1
        outbox.append(EventRecord(form: name, seq: seq, event: event))
    }

    /// Emits an event that carries the whole state (`formDefined`, `formReset`). The
    /// snapshot is stamped with that event's own seq: it is the state as of that event,
    /// so a client resyncing from it expects the next event to be seq + 1.
    mutating func emitState(includeSecrets: Bool = false, _ event: (FormSnapshot) -> FormEvent) {
        var state = snapshot(includeSecrets: includeSecrets)
        state.seq = seq + 1
        emit(event(state))
    }

    /// Replaces every field; responder and demands are cleared.
    mutating func replaceFields(_ newFields: [Field], index: FieldIndex? = nil) {
        for i in fields.indices { undoLog.forget(&fields[i].history) }
        fields = newFields
        responder = nil
        pendingBecome = nil
        if let index { indexByID = index } else { rebuildIndex() }
    }

    mutating func insertField(_ field: Field, at i: Int) {
        changeIndex { index, idAt in index.insert(field.id, at: i, idAt: idAt) }
        fields.insert(field, at: i)
        if let r = responder, r >= i { responder = r + 1 }
        if let p = pendingBecome, p >= i { pendingBecome = p + 1 }
    }

    /// Removes field `i`; the caller has already made it resign and dropped its demand.
    mutating func removeField(at i: Int) {
        precondition(responder != i && pendingBecome != i)
        changeIndex { index, idAt in index.remove(at: i, idAt: idAt) }
        undoLog.forget(&fields[i].history)
        fields.remove(at: i)
        if let r = responder, r > i { responder = r - 1 }
        if let p = pendingBecome, p > i { pendingBecome = p - 1 }
    }

    private mutating func rebuildIndex() {
        indexByID.removeAll()
        fields.withUnsafeBufferPointer { fields in
            for field in fields { _ = indexByID.append(field.id, idAt: { fields[$0].id }) }
        }
    }

    /// Changes the index with the fields' ids read in place: a copy of `fields` alive
    /// while they change would copy every field.
    private mutating func changeIndex(_ body: (inout FieldIndex, (Int) -> String) -> Void) {
        var index = FieldIndex()
        swap(&index, &indexByID)
        fields.withUnsafeBufferPointer { fields in body(&index, { fields[$0].id }) }
        indexByID = index
    }

    public func snapshot(includeSecrets: Bool) -> FormSnapshot {
        var list: [FieldSnapshot] = []
        list.reserveCapacity(fields.count)
        // Each field read in place through a pointer (never written through); borrowed out
        // of the array or a buffer pointer, each was copied whole.
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return }
            let field = UnsafeMutablePointer(mutating: base)
            for i in fields.indices {
                list.append(FieldSnapshot(inPlace: &field[i], isFirstResponder: responder == i,
                                          includeSecrets: includeSecrets, encoding: encoding))
            }
        }
        return FormSnapshot(form: name, seq: seq, firstResponder: firstResponderID, fields: list)
    }

    func fieldSnapshot(_ i: Int, includeSecrets: Bool) -> FieldSnapshot {
        FieldSnapshot(fields[i], isFirstResponder: responder == i, includeSecrets: includeSecrets, encoding: encoding)
    }
}

