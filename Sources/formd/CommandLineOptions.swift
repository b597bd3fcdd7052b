import FormdProtocol
import FormdServer

/// What the command line asked for.
enum Invocation {
    case serve(formFile: String?, limits: SessionLimits)
    case help
    case version
    /// `formd tui FORM.json [options]`: the terminal front end; it parses its own options.
    case tui([String])
}

/// A command-line mistake; the message says what to do.
struct UsageError: Error {
    var message: String
}

enum CommandLineOptions {
    static let usage = "formd [--form <file>] [--max-line-bytes <n>] [--max-depth <n>]\n       formd tui <form.json> [--output json|env]"

    static var help: String {
        let limits = SessionLimits()
        return """
        OVERVIEW: formd keeps form fields (text, one first responder, Return that moves on,
        Delete on an empty field that steps back, secure fields that never leak) and speaks
        newline-delimited JSON-RPC 2.0: commands on stdin, responses and events on stdout.

        USAGE: \(usage)

        SUBCOMMANDS:
          tui <form.json>         Fill in a form in the terminal; prints the values on
                                  submit (see 'formd tui --help').

        OPTIONS:
          --form <file>           Load the default form from a form file
                                  ({"presets": {...}, "fields": [...]}).
          --max-line-bytes <n>    Longest input line accepted, in bytes; a longer line is
                                  refused with error -32003. (default: \(limits.maxLineBytes))
          --max-depth <n>         Deepest JSON nesting accepted. (default: \(limits.maxDepth))
          --version               Show the version.
          -h, --help              Show help information.

        EXAMPLE:
          echo '{"id":1,"method":"getState"}' | formd --form examples/login.json

        The protocol (methods, events, errors) is described in protocol/README.md.
        """
    }

    static func parse(_ args: [String]) throws(UsageError) -> Invocation {
        if args.first == "tui" { return .tui(Array(args.dropFirst())) }
        var formFile: String? = nil
        var limits = SessionLimits()
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < args.count else { throw UsageError(message: "missing value for '\(flag)'") }
            return args[i]
        }
        func count(_ flag: String) throws(UsageError) -> Int {
            let v = try value(flag)
            guard let n = Int(v), n > 0 else {
                throw UsageError(message: "'\(flag)' takes a whole number above 0, got '\(v)'")
            }
            return n
        }
        while i < args.count {
            let arg = args[i]
            switch arg {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--form": formFile = try value(arg)
            case "--max-line-bytes": limits.maxLineBytes = try count(arg)
            case "--max-depth": limits.maxDepth = try count(arg)
            default:
                throw UsageError(message: arg.hasPrefix("-") ? "unknown option '\(arg)'" : "unexpected argument '\(arg)'")
            }
            i += 1
        }
        return .serve(formFile: formFile, limits: limits)
    }
}
