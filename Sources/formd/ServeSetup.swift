import FormdClient
import FormdCore
import FormdProtocol
import FormdServer
import FormdStore
#if canImport(Glibc)
import Glibc
#endif

/// Serves stdio or, with `--listen`, a socket until the conversation ends. Returns the
/// store to close and whether the server halted (the journal could not be written).
/// The engine is consumed into the server: a second reference to it would make the first
/// edit copy every field.
func serve(_ options: ServeOptions) -> (store: StateStore?, halted: Bool) {
    var (engine, store) = loadEngine(options)
    if let path = options.listen {
        let listener: UnixSocket.Listener
        do {
            listener = try UnixSocket.listen(at: path)
        } catch {
            store?.close()
            fail("cannot listen on \(path): \(error.message)")
        }
        let daemon = Daemon(engine: consume engine, limits: options.sessionLimits, observer: store)
        let server = ListenServer(daemon: consume daemon, listener: listener, options: options.listenOptions, wakeFD: Signals.wakeFD)
        server.run()
        return (store, server.halted)
    }
    var session = Session(engine: consume engine, limits: options.sessionLimits)
    session.observer = store
    var server = StdioServer(session: consume session)
    server.run()
    if let error = server.outputFailure {
        // A full disk or an I/O error is not a reader that went away: say so, exit 1.
        warn("cannot write to stdout: \(String(cString: strerror(error)))")
        return (store, true)
    }
    return (store, server.halted || server.lostFraming)
}

/// The engine from `--form`, then from `--state` if it holds one, and the store.
private func loadEngine(_ options: ServeOptions) -> (FormEngine, StateStore?) {
    var engine = FormEngine(limits: options.engineLimits)
    if let path = options.formFile {
        loadFormFile(path, into: &engine, maxDepth: options.sessionLimits.maxDepth)
    }
    var store: StateStore? = nil
    if var storeOptions = options.state {
        // Room for the record structure around hints that nest as deep as input may.
        storeOptions.maxDepth = max(storeOptions.maxDepth, options.sessionLimits.maxDepth + 16)
        // For tests: compact after this many journal bytes instead of 1 MiB.
        if let v = getenv("FORMD_STATE_COMPACT_BYTES"), let n = Int(String(cString: v)), n > 0 {
            storeOptions.compactAfterBytes = n
        }
        do {
            let opened = try StateStore.open(storeOptions, initial: engine)
            for note in opened.notes { warn("state \(storeOptions.path): \(note)") }
            engine = opened.engine
            store = opened.store
        } catch {
            fail("state \(storeOptions.path): \(error.message)")
        }
    }
    return (engine, store)
}

/// Loads the default form from a form file, or stops with status 2 naming the file and
/// the problem. No client is connected yet, so no `formDefined` is built.
private func loadFormFile(_ path: String, into engine: inout FormEngine, maxDepth: Int) {
    let file: FormFile
    switch FileContents.read(path) {
    case .failure(let f):
        fail("cannot read form file \(path): \(f.reason)")
    case .success(let bytes):
        do {
            file = try FormFile(bytes: bytes, maxDepth: maxDepth)
        } catch {
            fail("bad form file \(path): \(error.message)")
        }
    }
    do {
        try engine.load(count: file.count, presets: file.presets) { i throws(FormError) in try file.spec(i) }
    } catch {
        fail("bad form file \(path): \(error.message)")
    }
}
