#if canImport(Glibc)
import Glibc
#endif
import FormdCore
import FormdProtocol
import FormdServer
import FormdTUI

/// Thin wiring: parse the command line, load the form file, run the stdio server.

func fail(_ message: String, status: Int32 = 2) -> Never {
    let text = Array("formd: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
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
    if options.state != nil {
        fail("--state is not available yet", status: 2)
    }
    var server = StdioServer(session: Session(engine: engine, limits: options.sessionLimits))
    server.run()
}
