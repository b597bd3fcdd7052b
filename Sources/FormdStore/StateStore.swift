#if canImport(Glibc)
import Glibc
#endif
import FormdCore
import FormdJSON

/// A reason the daemon cannot start with its `--state`; the message says what to do.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// `--state PATH`: the forms kept in a directory, as a snapshot plus an append-only journal.
///
/// Files in PATH (all mode 0600; PATH itself is created 0700):
/// - `snapshot`: every form as of one moment, numbered by a generation; only ever
///   replaced whole (written to `snapshot.tmp`, fsynced, renamed over, directory fsynced).
/// - `journal`: the changes since the snapshot of the same generation, one checksummed
///   record per state-changing command. A record holds the *resulting* state of what the
///   command changed (the fields its events name, or the whole form after a define, reset,
///   add or remove), so replaying it is idempotent and secrets can be left out.
/// - `lock`: held (flock) while a daemon uses PATH, so two cannot interleave their writes.
///
/// At start the snapshot is read (a damaged one stops the start: it is never overwritten),
/// the journal's records are applied up to the first one that does not verify (a torn or
/// corrupt tail is reported and dropped, never applied), and the result is compacted into
/// the next generation's snapshot with a fresh journal. While serving, `commandChanged`
/// queues each change's record and `commit` (called before any output is written) writes
/// them, fsyncing as `StoreOptions.fsync` says; once the journal outgrows its threshold,
/// `commit` compacts it.
public final class StateStore: @unchecked Sendable {
    public static let snapshotName = "snapshot"
    public static let journalName = "journal"
    public static let lockName = "lock"
    static let snapshotTemp = "snapshot.tmp"
    static let journalTemp = "journal.tmp"
    public static let formatVersion = 1

    public let options: StoreOptions
    private var dirFD: Int32
    private var lockFD: Int32
    private var journalFD: Int32 = -1
    /// The generation of the current snapshot and journal.
    public private(set) var generation = 0
    /// Records queued since the last write.
    private var queued = JSONWriter(reservingCapacity: 1 << 16)
    /// Bytes in the journal file, header included.
    public private(set) var journalBytes = 0
    private var snapshotBytes = 0
    /// Grows after a compaction fails, so a full disk is not retried on every commit.
    private var compactionBackoff = 1
    /// A field turned secure: the plain text it had is in the journal until compacted away.
    private var compactionWanted = false
    /// Set when the journal could not be written: no further output may be flushed.
    public private(set) var failure: String? = nil
    /// How many compactions ran (startup included); for tests and benchmarks.
    public private(set) var compactions = 0
    /// fsync calls made on the journal; for tests and benchmarks.
    public private(set) var journalSyncs = 0

    /// What `open` found.
    public struct Opened {
        public var store: StateStore
        /// The restored engine, or `initial` when PATH held no state yet.
        public var engine: FormEngine
        /// False when PATH held no state (the first start).
        public var restored: Bool
        /// Journal records replayed on top of the snapshot.
        public var records: Int
        /// Things to tell the person on stderr (a dropped journal tail); no secrets.
        public var notes: [String]
    }

    private init(options: StoreOptions, dirFD: Int32, lockFD: Int32) {
        self.options = options
        self.dirFD = dirFD
        self.lockFD = lockFD
    }

    deinit { close() }

    /// Opens (creating if needed) the state directory, restores what it holds and compacts
    /// it. `initial` is used only when the directory holds no state yet; its limits apply
    /// to the restored engine too.
    public static func open(_ options: StoreOptions, initial: FormEngine) throws(StoreError) -> Opened {
        let dirFD: Int32
        do {
            dirFD = try Posix.openDirectory(options.path, create: true)
        } catch {
            throw StoreError(error.message)
        }
        let locked: Int32?
        do {
            locked = try Posix.lock(dirFD, lockName)
        } catch {
            Glibc.close(dirFD)
            throw StoreError(error.message)
        }
        guard let lockFD = locked else {
            Glibc.close(dirFD)
            throw StoreError("\(options.path) is in use by another formd (its \(lockName) file is locked)")
        }
        let store = StateStore(options: options, dirFD: dirFD, lockFD: lockFD)
        // Leftovers of a compaction that died before its renames.
        Posix.removeIfPresent(dirFD, snapshotTemp)
        Posix.removeIfPresent(dirFD, journalTemp)
        let recovered = try store.recover(initial: initial)
        do {
            if let a = recovered.appendable {
                // A clean journal: go on appending, with no writes at start.
                try store.reopenJournal(bytes: a.journalBytes, snapshotBytes: a.snapshotBytes)
            } else {
                // First start, a dropped tail, a stale journal or a change of
                // `persistSecrets`: start the next generation from what was restored.
                try store.compactFiles(recovered.engine)
            }
        } catch {
            throw StoreError("cannot write the state: \(error.message)")
        }
        return Opened(store: store, engine: recovered.engine, restored: recovered.restored, records: recovered.records, notes: recovered.notes)
    }

    // MARK: Recovery

    /// What the files of a state directory restore to.
    public struct Recovered {
        public var engine: FormEngine
        /// False when there was no snapshot (a first start): `engine` is the initial one.
        public var restored: Bool
        public var generation: Int
        /// Journal records applied.
        public var records: Int
        public var notes: [String]
        /// The journal continues the snapshot, ends with a whole record and was written
        /// with the same `persistSecrets`: the daemon may append to it as it is instead
        /// of compacting at start. Its size, and the snapshot's.
        public var appendable: (journalBytes: Int, snapshotBytes: Int, secrets: Bool)? = nil
    }

    private func recover(initial: FormEngine) throws(StoreError) -> Recovered {
        let snapshot: [UInt8]?, journal: [UInt8]?
        do {
            snapshot = try Posix.readFile(dirFD, StateStore.snapshotName)
            journal = try Posix.readFile(dirFD, StateStore.journalName)
        } catch {
            throw StoreError(error.message)
        }
        var recovered = try StateStore.recover(snapshot: snapshot, journal: journal, initial: initial,
                                               path: options.path, maxDepth: options.maxDepth)
        generation = recovered.generation
        if let a = recovered.appendable, a.secrets != options.persistSecrets { recovered.appendable = nil }
        return recovered
    }

    /// Restores the contents of a snapshot file and a journal file (nil: no such file),
    /// without touching any file: the whole of recovery but the reading.
    public static func recover(snapshot: [UInt8]?, journal: [UInt8]?, initial: FormEngine,
                               path dir: String = ".", maxDepth: Int = 1024) throws(StoreError) -> Recovered {
        func path(_ name: String) -> String { dir.hasSuffix("/") ? dir + name : dir + "/" + name }
        guard let snapshot else {
            if let journal, !journal.isEmpty {
                throw StoreError("\(path(journalName)) exists but \(path(snapshotName)) does not; refusing to start without the snapshot it continues (move the directory away to start afresh)")
            }
            return Recovered(engine: initial, restored: false, generation: 0, records: 0, notes: [])
        }
        let decoded: (generation: Int, secrets: Bool, forms: [PersistedForm])
        do {
            decoded = try decodeSnapshot(snapshot, maxDepth: maxDepth)
        } catch {
            throw StoreError("\(path(snapshotName)) is corrupt (\(error.message)); refusing to start rather than overwrite it (move it away to start afresh)")
        }
        var forms: [String: PersistedForm] = [:]
        for f in decoded.forms { forms[f.name] = f }
        var notes: [String] = []
        var applied = 0
        var appendable: (journalBytes: Int, snapshotBytes: Int, secrets: Bool)? = nil
        if let journal, !journal.isEmpty {
            let scan = RecordCodec.scan(journal, maxDepth: maxDepth)
            guard let header = scan.records.first else {
                throw StoreError("\(path(journalName)) has no valid header (\(scan.damage?.description ?? "empty")); refusing to start (move it away to start from the snapshot)")
            }
            let journalGeneration: Int
            let journalSecrets: Bool
            do {
                (journalGeneration, journalSecrets) = try decodeHeader(header, type: "journal")
            } catch {
                throw StoreError("\(path(journalName)) has a bad header (\(error.message)); refusing to start (move it away to start from the snapshot)")
            }
            if journalGeneration > decoded.generation {
                throw StoreError("\(path(journalName)) continues generation \(journalGeneration) but the snapshot is generation \(decoded.generation); refusing to start (was the snapshot replaced?)")
            }
            // An older journal is one a compaction already folded into the snapshot.
            if journalGeneration == decoded.generation {
                for (n, record) in scan.records.dropFirst().enumerated() {
                    do {
                        try apply(record, to: &forms)
                    } catch {
                        throw StoreError("\(path(journalName)) record \(n + 1) does not apply (\(error.message)); refusing to start")
                    }
                    applied += 1
                }
                if let damage = scan.damage {
                    notes.append("\(path(journalName)): dropped \(journal.count - scan.validLength) bytes of a torn or corrupt tail \(damage) after \(applied) good records")
                } else if journalSecrets == decoded.secrets {
                    appendable = (journal.count, snapshot.count, journalSecrets)
                }
            }
        }
        do {
            let engine = try FormEngine(limits: initial.limits, restoring: forms.values.sorted { $0.name < $1.name })
            return Recovered(engine: engine, restored: true, generation: decoded.generation, records: applied, notes: notes,
                             appendable: appendable)
        } catch {
            throw StoreError("the state in \(dir) does not restore (\(error.message)); refusing to start")
        }
    }

    private func path(_ name: String) -> String {
        options.path.hasSuffix("/") ? options.path + name : options.path + "/" + name
    }

    /// A header's generation, and whether the files of that generation may hold secrets.
    static func decodeHeader(_ o: JSONObject, type: String) throws(StateCodec.DecodeError) -> (generation: Int, secrets: Bool) {
        let r = try StateCodec.Reader(o, path: "header", allowed: ["t", "version", "generation", "forms", "secrets"])
        guard try r.string("t") == type else { throw StateCodec.DecodeError("the first record is not a \(type) header") }
        guard let v = try r.count("version"), v == formatVersion else {
            throw StateCodec.DecodeError("unsupported format version (this formd reads version \(formatVersion))")
        }
        guard let g = try r.count("generation"), g > 0 else { throw StateCodec.DecodeError("header has no generation") }
        return (g, try r.bool("secrets") ?? false)
    }

    /// The generation and forms of a snapshot, checking that it is whole.
    public static func decodeSnapshot(_ bytes: [UInt8], maxDepth: Int) throws(StateCodec.DecodeError) -> (generation: Int, secrets: Bool, forms: [PersistedForm]) {
        let scan = RecordCodec.scan(bytes, maxDepth: maxDepth)
        if let damage = scan.damage { throw StateCodec.DecodeError("damaged record \(damage)") }
        guard let header = scan.records.first else { throw StateCodec.DecodeError("empty") }
        let (generation, secrets) = try decodeHeader(header, type: "snapshot")
        guard let count = try StateCodec.Reader(header, path: "header", allowed: ["t", "version", "generation", "forms", "secrets"]).count("forms") else {
            throw StateCodec.DecodeError("header does not say how many forms follow")
        }
        guard scan.records.count == count + 2 else {
            throw StateCodec.DecodeError("\(scan.records.count - 1) records after the header, expected \(count) forms and an end")
        }
        var forms: [PersistedForm] = []
        for (i, record) in scan.records[1...count].enumerated() {
            let r = try StateCodec.Reader(record, path: "form \(i)", allowed: ["t"] + StateCodec.formKeys)
            guard try r.string("t") == "form" else { throw StateCodec.DecodeError("record \(i + 1) is not a form") }
            forms.append(try StateCodec.decodeForm(record, path: "form \(i)", extra: ["t"]))
        }
        let end = try StateCodec.Reader(scan.records[count + 1], path: "end", allowed: ["t", "forms"])
        guard try end.string("t") == "end", try end.count("forms") == count else {
            throw StateCodec.DecodeError("the snapshot does not end with its end record")
        }
        return (generation, secrets, forms)
    }

    /// Applies one journal record to the saved forms.
    static func apply(_ record: JSONObject, to forms: inout [String: PersistedForm]) throws(StateCodec.DecodeError) {
        guard let t = record["t"]?.stringValue else { throw StateCodec.DecodeError("record has no type") }
        switch t {
        case "form":
            let form = try StateCodec.decodeForm(record, path: "form", extra: ["t"])
            forms[form.name] = form
        case "fields":
            let r = try StateCodec.Reader(record, path: "fields", allowed: ["t", "form", "seq", "responder", "pendingBecome", "fields"])
            let name = try r.string("form")
            guard var form = forms[name] else { throw StateCodec.DecodeError("unknown form \"\(name)\"") }
            guard let changed = try r.value("fields").arrayValue else { throw StateCodec.DecodeError("fields must be an array") }
            for f in try StateCodec.decodeFields(changed, path: "fields") {
                guard let i = form.fields.firstIndex(where: { $0.spec.id == f.spec.id }) else {
                    throw StateCodec.DecodeError("unknown field \"\(f.spec.id)\" in form \"\(name)\"")
                }
                form.fields[i] = f
            }
            guard let seq = try r.count("seq") else { throw StateCodec.DecodeError("missing seq") }
            form.seq = seq
            form.responder = try r.stringOrNull("responder")
            form.pendingBecome = try r.stringOrNull("pendingBecome")
            forms[name] = form
        default:
            throw StateCodec.DecodeError("unknown record type \"\(t)\"")
        }
    }

    // MARK: Journaling

    /// The journal saves the fields an event names from the engine, never an event's text.
    public var readsEventTexts: Bool { false }

    /// Queues the record of one command's changes (written at once with `--fsync always`).
    public func commandChanged(form name: String, events: [EventRecord], engine: FormEngine) {
        guard failure == nil, let form = engine.form(name) else { return }
        var whole = false
        var ids: [String] = []
        func note(_ id: String) { if !ids.contains(id) { ids.append(id) } }
        for record in events {
            switch record.event {
            case .textChanged(let f, _, _, _, _), .selectionChanged(let f, _), .responderChanged(let f, _),
                 .demandChanged(let f, _, _), .validityChanged(let f, _), .returnPressed(let f, _),
                 .deletePressed(let f, _):
                note(f)
            case .fieldChanged(let f, let changes):
                note(f)
                if changes.options.secure == true && !options.persistSecrets { compactionWanted = true }
            case .changeRejected, .focusChanged, .submitted, .submitFailed:
                break
            default:
                // Defined, reset, a field added or removed (or an event this code does not
                // know): save the whole form.
                whole = true
            }
        }
        var o = JSONObject()
        if whole {
            o.append("t", "form")
            o.members += StateCodec.encode(StateCodec.persisted(form, persistSecrets: options.persistSecrets)).members
            if StateStore.isLarge(form) {
                writeStreamed(o)
                return
            }
        } else {
            o.append("t", "fields")
            o.append("form", .string(name))
            o.append("seq", .number(JSONNumber(form.seq)))
            o.append("responder", form.firstResponderID.map(JSONValue.string) ?? .null)
            o.append("pendingBecome", form.pendingBecomeID.map(JSONValue.string) ?? .null)
            var fields: [JSONValue] = []
            for id in ids {
                guard let i = try? form.index(of: id) else { continue }
                fields.append(.object(StateCodec.encode(StateCodec.persisted(form.fields[i], persistSecrets: options.persistSecrets))))
            }
            o.append("fields", .array(fields))
        }
        RecordCodec.append(.object(o), to: &queued)
        if options.fsync == .always { writeQueued(sync: true) }
    }

    /// Writes the queued records (fsyncing with `batch`), then compacts if the journal has
    /// grown past its threshold. False once the journal cannot be written.
    public func commit(engine: FormEngine) -> Bool {
        if failure != nil { return false }
        if !queued.isEmpty { writeQueued(sync: options.fsync == .batch) }
        if failure != nil { return false }
        if compactionWanted || journalBytes >= compactionThreshold {
            compactionWanted = false
            do {
                try compactFiles(engine)
                compactionBackoff = 1
            } catch {
                // The journal still holds everything; only its size keeps growing.
                if failure == nil {
                    compactionBackoff *= 2
                    warn("compaction failed, will retry later: \(error.message)")
                }
            }
        }
        return failure == nil
    }

    /// The journal size at which `commit` compacts: the configured size, or twice the
    /// snapshot if that is larger (so a large state is not rewritten too often).
    public var compactionThreshold: Int {
        max(options.compactAfterBytes, 2 * snapshotBytes) * compactionBackoff
    }

    /// Whether a record of the whole `form` may take 64 KiB or more (its texts, initial
    /// texts and fields): such a record is streamed, not queued (`writeStreamed`).
    static func isLarge(_ form: Form) -> Bool {
        form.fields.count * 64 >= 1 << 16
            || form.fields.reduce(0) { $0 + $1.text.utf8.count + $1.initialText.utf8.count } >= 1 << 16
    }

    /// Writes a large record to the journal at once, after the records queued before it, a
    /// piece at a time (`RecordCodec.stream`): a `reset` of a form holding 60 MB of text
    /// would otherwise make the journal hold a record of as much, whole.
    private func writeStreamed(_ record: JSONObject) {
        writeQueued(sync: false)
        guard failure == nil else { return }
        do throws(Posix.Failure) {
            journalBytes += try RecordCodec.stream(record) { piece throws(Posix.Failure) in
                try Posix.writeAll(journalFD, piece, StateStore.journalName)
            }
            if options.fsync == .always {
                try Posix.syncData(journalFD, StateStore.journalName)
                journalSyncs += 1
            }
        } catch {
            fail("the journal cannot be written (\(error.message)); stopping without answering what it does not hold")
        }
    }

    private func writeQueued(sync: Bool) {
        do throws(Posix.Failure) {
            let failure: Posix.Failure? = queued.withUnsafeBytes { raw in
                do throws(Posix.Failure) { try Posix.writeAll(journalFD, raw, StateStore.journalName) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            journalBytes += queued.count
            if sync {
                try Posix.syncData(journalFD, StateStore.journalName)
                journalSyncs += 1
            }
        } catch {
            fail("the journal cannot be written (\(error.message)); stopping without answering what it does not hold")
        }
        if queued.capacity > 1 << 20 {
            queued = JSONWriter(reservingCapacity: 1 << 16)
        } else {
            queued.removeAll()
        }
    }

    private func reopenJournal(bytes: Int, snapshotBytes: Int) throws(Posix.Failure) {
        journalFD = try Posix.openForAppend(dirFD, StateStore.journalName)
        journalBytes = bytes
        self.snapshotBytes = snapshotBytes
    }

    // MARK: Compaction

    /// Writes `engine` as the next generation's snapshot and starts its empty journal.
    ///
    /// Order: the new journal is prepared under a temporary name; the snapshot is written
    /// to a temporary file, fsynced and renamed over the old one (from here the new
    /// generation is the state); the directory is fsynced; the new journal is renamed
    /// into place and the directory fsynced again. A crash anywhere leaves either the old
    /// snapshot with its journal, or the new snapshot with the old journal (recognised by
    /// its generation and ignored: the snapshot already holds it) or with the new one.
    /// Snapshots are fsynced whatever `--fsync` says: they are rare and replace the only
    /// copy of the state.
    public func compact(_ engine: FormEngine) throws(StoreError) {
        do {
            try compactFiles(engine)
        } catch {
            throw StoreError(error.message)
        }
    }

    private func compactFiles(_ engine: FormEngine) throws(Posix.Failure) {
        let next = generation + 1
        let header = RecordCodec.encode(["t": "journal", "version": .number(JSONNumber(StateStore.formatVersion)),
                                         "generation": .number(JSONNumber(next)), "secrets": .bool(options.persistSecrets)])
        let newJournal = try Posix.create(dirFD, StateStore.journalTemp)
        let snapshot: Int
        do {
            try Posix.writeAll(newJournal, header, StateStore.journalTemp)
            try Posix.syncData(newJournal, StateStore.journalTemp)
            let fd = try Posix.create(dirFD, StateStore.snapshotTemp)
            defer { Glibc.close(fd) }
            snapshot = try writeSnapshot(engine, generation: next) { piece throws(Posix.Failure) in
                try Posix.writeAll(fd, piece, StateStore.snapshotTemp)
            }
            try Posix.syncData(fd, StateStore.snapshotTemp)
            try Posix.rename(dirFD, StateStore.snapshotTemp, StateStore.snapshotName)
        } catch {
            Glibc.close(newJournal)
            Posix.removeIfPresent(dirFD, StateStore.journalTemp)
            Posix.removeIfPresent(dirFD, StateStore.snapshotTemp)
            throw error
        }
        // The new snapshot is the state now: appending to the old journal would be lost.
        generation = next
        do {
            try Posix.sync(dirFD, options.path)
            try Posix.rename(dirFD, StateStore.journalTemp, StateStore.journalName)
            try Posix.sync(dirFD, options.path)
        } catch {
            Glibc.close(newJournal)
            fail("cannot start the journal of generation \(next) (\(error.message)); stopping")
            throw error
        }
        if journalFD >= 0 { Glibc.close(journalFD) }
        journalFD = newJournal
        journalBytes = header.count
        snapshotBytes = snapshot
        compactions += 1
    }

    /// The snapshot of `engine`, as bytes (`writeSnapshot`).
    func encodeSnapshot(_ engine: FormEngine, generation: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = try? writeSnapshot(engine, generation: generation) { bytes += $0 }
        return bytes
    }

    /// Hands `sink` the snapshot of `engine` a piece at a time, a form's record streamed
    /// (`RecordCodec.stream`), so a large state is never held whole. Returns its size.
    @discardableResult
    func writeSnapshot(_ engine: FormEngine, generation: Int,
                       to sink: (UnsafeRawBufferPointer) throws(Posix.Failure) -> Void) throws(Posix.Failure) -> Int {
        let names = engine.forms.keys.sorted()
        let header = RecordCodec.encode(["t": "snapshot", "version": .number(JSONNumber(StateStore.formatVersion)),
                                         "generation": .number(JSONNumber(generation)), "secrets": .bool(options.persistSecrets),
                                         "forms": .number(JSONNumber(names.count))])
        // A small record, handed over whole.
        func hand(_ record: [UInt8]) throws(Posix.Failure) {
            let failure: Posix.Failure? = record.withUnsafeBytes { raw in
                do throws(Posix.Failure) { try sink(raw) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }
        try hand(header)
        var size = header.count
        for name in names {
            var o = JSONObject()
            o.append("t", "form")
            o.members += StateCodec.encode(StateCodec.persisted(engine.forms[name]!, persistSecrets: options.persistSecrets)).members
            size += try RecordCodec.stream(o, to: sink)
        }
        let end = RecordCodec.encode(["t": "end", "forms": .number(JSONNumber(names.count))])
        try hand(end)
        return size + end.count
    }

    // MARK: Closing and failing

    /// Closes the files and releases the lock. Queued records must have been committed.
    public func close() {
        if journalFD >= 0 { Glibc.close(journalFD); journalFD = -1 }
        if lockFD >= 0 { Glibc.close(lockFD); lockFD = -1 }
        if dirFD >= 0 { Glibc.close(dirFD); dirFD = -1 }
    }

    private func fail(_ message: String) {
        if failure == nil {
            failure = message
            warn(message)
        }
    }

    private func warn(_ message: String) {
        let text = Array("formd: state \(options.path): \(message)\n".utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
