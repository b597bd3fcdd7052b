// Thin wiring: parse the command line, load the form file, run the stdio server.
#if canImport(Glibc)
import Glibc
#endif
import FormdCore
import FormdProtocol
import FormdServer
import FormdStore
import FormdTUI
import FormdClient

/// The journal sees every change before its response can be written (`--state`).
extension StateStore: CommandObserver {}

/// Says why on stderr and exits with `status` (2: a bad command line, form file or state).
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
case .call(let args):
    exit(CallCommand.main(args))
case .wait(let args):
    exit(WaitCommand.main(args))
case .attach(let path):
    let fd: Int32
    do {
        fd = try AttachBridge.connect(to: path)
    } catch {
        fail(error.message, status: 1)
    }
    exit(AttachBridge.run(socket: fd, path: path))
case .help:
    print(CommandLineOptions.help)
case .version:
    print("\(ServerInfo.name) \(ServerInfo.version) (protocol \(ServerInfo.protocolVersion))")
case .serve(let options):
    Signals.install()
    let (store, halted) = serve(options)
    if let store {
        store.close()
        if store.failure != nil { exit(1) }
    }
    if halted { exit(1) }
}
