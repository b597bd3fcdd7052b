#if canImport(Glibc)
import Glibc
#endif
import FormdCore
import FormdProtocol
import FormdServer
import FormdStore
import FormdTUI

/// The journal sees every change before its response can be written (`--state`).
extension StateStore: CommandObserver {}

/// Thin wiring: parse the command line, load the form file, run the stdio server.

func fail(_ message: String, status: Int32 = 2) -> Never {
    let text = Array("formd: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

func warn(_ message: String) {
    let text = Array("formd: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

let invocation: Invocation
do {
    invocation = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.message)\nUsage: \(CommandLineOptions.usage)\n  See 'formd --help' for more information.")
}

switch invocation {
case .tui(let args):
    exit(TerminalForm.main(args))
case .attach(let path):
    let fd: Int32
    do {
        fd = try AttachBridge.connect(to: path)
    } catch {
        fail(error.message, status: 1)
    }
    exit(AttachBridge.run(socket: fd))
case .help:
    print(CommandLineOptions.help)
case .version:
    print("\(ServerInfo.name) \(ServerInfo.version) (protocol \(ServerInfo.protocolVersion))")
case .serve(let options):
    var engine = FormEngine(limits: options.engineLimits)
    if let path = options.formFile {
        let bytes: [UInt8]
        switch FileContents.read(path) {
        case .success(let b): bytes = b
        case .failure(let f): fail("cannot read form file \(path): \(f.reason)")
        }
        do {
            _ = try engine.perform(FormFile.command(from: bytes, maxDepth: options.sessionLimits.maxDepth))
        } catch let error as ProtocolError {
            fail("bad form file \(path): \(error.message)")
        } catch let error as FormError {
            fail("bad form file \(path): \(error.message)")
        } catch {
            fail("bad form file \(path): \(error)")
        }
    }
    Signals.install()
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
    if let path = options.listen {
        let listener: UnixSocket.Listener
        do {
            listener = try UnixSocket.listen(at: path)
        } catch {
            store?.close()
            fail("cannot listen on \(path): \(error.message)")
        }
        let wake = Signals.wakeUpDescriptor()
        var daemon = Daemon(engine: engine, limits: options.sessionLimits)
        daemon.observer = store
        let server = ListenServer(daemon: daemon, listener: listener, options: options.listenOptions, wakeFD: wake)
        server.run()
        if server.halted { store?.close(); exit(1) }
    } else {
        var session = Session(engine: engine, limits: options.sessionLimits)
        session.observer = store
        var server = StdioServer(session: session)
        server.run()
    }
    if let store {
        store.close()
        if store.failure != nil { exit(1) }
    }
}
