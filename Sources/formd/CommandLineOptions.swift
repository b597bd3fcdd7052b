import FormdCore
import FormdProtocol
import FormdServer
import FormdStore

/// Everything `formd` (serving stdio) was asked for.
struct ServeOptions {
    var formFile: String? = nil
    var sessionLimits = SessionLimits()
    var engineLimits = EngineLimits()
    var state: StoreOptions? = nil
    /// `--listen PATH`: serve clients on a Unix socket instead of stdio.
    var listen: String? = nil
    var listenOptions = ListenOptions()
}

/// What the command line asked for.
enum Invocation {
    case serve(ServeOptions)
    case help
    case version
    /// `formd tui FORM.json [options]`: the terminal front end; it parses its own options.
    case tui([String])
    /// `formd attach PATH`: bridge stdin/stdout to a `--listen` daemon.
    case attach(String)
    /// `formd call …` / `formd wait …`: one request to, or one event from, a `--listen`
    /// daemon; they parse their own options.
    case call([String])
    case wait([String])
}

/// A command-line mistake; the message says what to do.
struct UsageError: Error {
    var message: String
}

enum CommandLineOptions {
    static let usage = """
        formd [--form <file>] [--listen <socket> [--max-client-buffer <n>]]
                     [--state <path> [--fsync always|batch|never] [--persist-secrets]] [limits…]
               formd attach <socket>
               formd call [--socket <socket>] [--form <name>] <method> [<params> ...]
               formd wait [--socket <socket>] [--form <name>] [--field <id>] <event> ...
               formd tui <form.json> | --socket <socket> [--form <name>]
        """

    static var help: String {
        let s = SessionLimits(), e = EngineLimits(), l = ListenOptions()
        return """
        OVERVIEW: formd keeps form fields (text, one first responder, Return that moves on,
        Delete on an empty field that steps back, secure fields that never leak) and speaks
        JSON-RPC 2.0, one message per line or framed with Content-Length headers:
        commands on stdin, responses and events on stdout.

        USAGE: \(usage)

        SUBCOMMANDS:
          attach <socket>         Bridge stdin/stdout to a formd serving --listen <socket>,
                                  so any stdio client can share its forms.
          call <method> [<params>]
                                  Send one request to a formd --listen and print its
                                  result; the exit status says whether it happened
                                  (see 'formd call --help').
          wait <event> ...        Wait for an event of a formd --listen and print its
                                  params (see 'formd wait --help').
          tui <form.json>         Fill in a form in the terminal; prints the values on
                                  submit. With --socket, a form of a running formd
                                  --listen (see 'formd tui --help').

        OPTIONS:
          --form <file>           Load the default form from a form file
                                  ({"presets": {...}, "fields": [...]}).
          --listen <socket>       Serve any number of clients on a Unix socket (created
                                  mode 0600, in a directory only you can write to)
                                  instead of stdin/stdout; they share the forms.
          --max-client-buffer <n> With --listen: bytes of output that may wait for one
                                  client before it is disconnected. (default: \(l.maxClientBuffer))
          --max-clients <n>       With --listen: clients served at once. (default: \(l.maxClients))
          --max-unfinished-input <n>
                                  With --listen: bytes of unfinished lines held for all
                                  clients together. (default: \(l.maxUnfinishedInput))
          --line-timeout <s>      With --listen: seconds an unfinished line may wait for
                                  its end. (default: \(Int(l.lineTimeout)))
          --state <path>          Keep the forms in <path> (a journal and snapshots) and
                                  restore them at the next start with the same path.
          --fsync <when>          always: before every response (survives power loss);
                                  batch: once per burst of output; never: leave it to the
                                  kernel (survives a killed daemon). (default: batch)
          --persist-secrets       Also keep secure fields' text in the state (mode 0600).
          --version               Show the version.
          -h, --help              Show help information.

        LIMITS (exceeding one is error -32003, naming it; nothing changes):
          --max-line-bytes <n>    Longest input line, in bytes. (default: \(s.maxLineBytes))
          --max-depth <n>         Deepest JSON nesting. (default: \(s.maxDepth))
          --max-fields <n>        Fields in one form. (default: \(e.maxFields))
          --max-total-fields <n>  Fields in all forms. (default: \(e.maxTotalFields))
          --max-forms <n>         Forms in the daemon. (default: \(e.maxForms))
          --max-text-length <n>   Characters in one field. (default: \(e.maxTextLength))
          --max-undo <n>          Undo steps kept per field. (default: \(e.maxUndoSteps))
          --max-undo-text <n>     Bytes of undo history in all fields; the oldest steps
                                  are dropped, nothing is refused. (default: \(e.maxUndoText))
          --max-pattern-size <n>  Instructions of one compiled pattern or inputFilter.
                                  (default: \(e.maxPatternSize))
          --max-total-text <n>    Bytes of text and initial text in all fields. (default: \(e.maxTotalText))
          --max-line-output <n>   Bytes of answers one batch may produce. (default: \(s.maxLineOutput))
          --max-pending-output <n>
                                  Bytes of output that may wait for a slow reader of
                                  stdout; past it formd reads no more input until the
                                  reader catches up. (default: \(s.maxPendingOutput))

        EXAMPLE:
          echo '{"id":1,"method":"getState"}' | formd --form examples/login.json

        The protocol (methods, events, errors) is described in protocol/README.md.
        """
    }

    static func parse(_ args: [String]) throws(UsageError) -> Invocation {
        if args.first == "tui" { return .tui(Array(args.dropFirst())) }
        if args.first == "call" { return .call(Array(args.dropFirst())) }
        if args.first == "wait" { return .wait(Array(args.dropFirst())) }
        if args.first == "attach" {
            let rest = args.dropFirst()
            if rest.contains("-h") || rest.contains("--help") { return .help }
            guard rest.count == 1, let path = rest.first, !path.hasPrefix("-") else {
                throw UsageError(message: rest.isEmpty ? "'attach' takes the socket path of a formd --listen" : "'attach' takes exactly one argument, the socket path")
            }
            return .attach(path)
        }
        var o = ServeOptions()
        var statePath: String? = nil
        var fsync = StoreOptions.Fsync.batch
        var persistSecrets = false
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < args.count else { throw UsageError(message: "missing value for '\(flag)'") }
            return args[i]
        }
        func count(_ flag: String, atMost ceiling: Int = Int.max) throws(UsageError) -> Int {
            let v = try value(flag)
            guard let n = Int(v), n > 0, n <= ceiling else {
                let range = ceiling == Int.max ? "above 0" : "from 1 to \(ceiling)"
                throw UsageError(message: "'\(flag)' takes a whole number \(range), got '\(v)'")
            }
            return n
        }
        while i < args.count {
            let arg = args[i]
            switch arg {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--form": o.formFile = try value(arg)
            case "--listen": o.listen = try value(arg)
            case "--max-client-buffer": o.listenOptions.maxClientBuffer = try count(arg)
            case "--max-clients": o.listenOptions.maxClients = try count(arg)
            case "--max-unfinished-input": o.listenOptions.maxUnfinishedInput = try count(arg)
            case "--line-timeout": o.listenOptions.lineTimeout = Double(try count(arg))
            case "--state": statePath = try value(arg)
            case "--fsync":
                let v = try value(arg)
                guard let f = StoreOptions.Fsync(rawValue: v) else {
                    throw UsageError(message: "'--fsync' takes always, batch or never, got '\(v)'")
                }
                fsync = f
            case "--persist-secrets": persistSecrets = true
            case "--max-line-bytes": o.sessionLimits.maxLineBytes = try count(arg)
            case "--max-depth": o.sessionLimits.maxDepth = try count(arg, atMost: SessionLimits.maxDepthCeiling)
            case "--max-fields": o.engineLimits.maxFields = try count(arg)
            case "--max-total-fields": o.engineLimits.maxTotalFields = try count(arg)
            case "--max-forms": o.engineLimits.maxForms = try count(arg)
            case "--max-text-length": o.engineLimits.maxTextLength = try count(arg)
            case "--max-undo": o.engineLimits.maxUndoSteps = try count(arg)
            case "--max-undo-text": o.engineLimits.maxUndoText = try count(arg)
            case "--max-pattern-size": o.engineLimits.maxPatternSize = try count(arg)
            case "--max-total-text": o.engineLimits.maxTotalText = try count(arg)
            case "--max-line-output": o.sessionLimits.maxLineOutput = try count(arg)
            case "--max-pending-output": o.sessionLimits.maxPendingOutput = try count(arg)
            default:
                throw UsageError(message: arg.hasPrefix("-") ? "unknown option '\(arg)'" : "unexpected argument '\(arg)'")
            }
            i += 1
        }
        if let statePath {
            o.state = StoreOptions(path: statePath, fsync: fsync, persistSecrets: persistSecrets)
        } else if persistSecrets || args.contains("--fsync") {
            throw UsageError(message: "'--fsync' and '--persist-secrets' go with '--state <path>'")
        }
        for flag in ["--max-client-buffer", "--max-clients", "--max-unfinished-input", "--line-timeout"]
        where o.listen == nil && args.contains(flag) {
            throw UsageError(message: "'\(flag)' goes with '--listen <socket>'")
        }
        return .serve(o)
    }
}
