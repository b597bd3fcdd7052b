#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// `formd call`: one request to a running `formd --listen`, its result on stdout, and an
/// exit status a script can test.
public enum CallCommand {
    public static let usage = "formd call [--socket <path>] [--form <name>] [--timeout <seconds>] [--get <pointer>] <method> [<json-object> | <key>=<string> | <key>:=<json> ...]"

    static let help = """
    OVERVIEW: Send one request to a running 'formd --listen' and print its result.

    The result is printed as compact JSON on stdout. Events the request causes go to
    the daemon's other clients as usual; this command does not print them (use
    'formd wait' to wait for one).

    USAGE: \(usage)

    ARGUMENTS:
      <method>                A protocol method: setText, insertText, pressReturn,
                              demandFocus, getState, submit, ... (protocol/README.md).
      <json-object>           The params as one JSON object: '{"field":"email"}'.
      <key>=<string>          A string param: text='ada@example.com'.
      <key>:=<json>           A param of any JSON type: enabled:=false, count:=3,
                              fields:='[{"id":"a"}]'.
      <key>=@<file>           The value read from <file> ('-': stdin), without
                              its final newline: text=@- <<<"$password" keeps a
                              secret off the command line, which 'ps' shows to
                              every user. <key>:=@<file> reads JSON. A value
                              that starts with @ itself is written \\@...

    OPTIONS:
      --socket <path>         The socket of the daemon (default: $FORMD_SOCKET).
      --form <name>           The form to act on: adds "form": <name> to the params
                              (default: the daemon's "default" form).
      --timeout <seconds>     Give up when no response came within <seconds>
                              (default: wait as long as it takes).
      --get <pointer>         Print only the value at <pointer> in the result, a
                              JSON Pointer (RFC 6901: /firstResponder,
                              /fields/0/text; ~1 is a '/' in a name): a string as
                              its raw text (no quotes, no escapes), anything else
                              as compact JSON; then a newline.
      -h, --help              Show this help.

    EXIT STATUS:
      0  the result, on stdout.
      1  an error response ('formd: CODE MESSAGE' on stderr), or a result saying the
         change did not happen, which is printed too: "applied": false (setText,
         insertText, delete, undo, redo), "outcome": "refused" (demandFocus),
         "performed": false (editAction), "valid": false (validate, submit).
      2  a usage error, no daemon at the socket, or the daemon went away or did not
         answer in time (a message on stderr).
      3  the result has nothing at the --get pointer (a message on stderr says what
         is there); the request was carried out.

    EXAMPLES:
      formd --listen "$XDG_RUNTIME_DIR/formd.sock" --form examples/login.json &
      export FORMD_SOCKET=$XDG_RUNTIME_DIR/formd.sock
      formd call setText field=email text=ada@example.com     # {"applied":true}
      formd call demandFocus field=password demand=become     # {"outcome":"fulfilled"}
      formd call getState --get /firstResponder               # email
      if ! formd call validate >/dev/null; then echo "not valid yet"; fi
    """

    struct Options {
        var socket: String
        var method: String
        var params: JSONObject
        var timeout: Double?
        var get: ValuePointer?
    }

    /// Parses the command line; nil when it asks for help.
    static func parse(_ args: [String]) throws(UsageError) -> Options? {
        var reader = ArgumentReader(args)
        var socket: String? = nil, form: String? = nil, timeout: Double? = nil, get: ValuePointer? = nil
        var operands: [String] = []
        while let item = reader.next() {
            switch item {
            case .operand(let v): operands.append(v)
            case .option("-h"), .option("--help"): return nil
            case .option("--socket"): socket = try reader.value(for: "--socket", once: socket)
            case .option("--form"): form = try reader.value(for: "--form", once: form)
            case .option("--timeout"): timeout = try ClientOptions.seconds(reader.value(for: "--timeout", once: timeout), flag: "--timeout")
            case .option("--get"): get = try ValuePointer(reader.value(for: "--get", once: get))
            case .option(let o): throw ClientOptions.unknown(o)
            }
        }
        guard let method = operands.first else { throw UsageError("missing the method, such as getState or setText") }
        var params = try ParamsArguments.parse(Array(operands.dropFirst()))
        if let form {
            guard params["form"] == nil else { throw UsageError("the form is given twice: by --form and in the params") }
            params.append("form", .string(form))
        }
        return Options(socket: try ClientOptions.socket(socket), method: method, params: params, timeout: timeout, get: get)
    }

    /// Runs `formd call ARGS`; returns the exit status.
    public static func main(_ args: [String]) -> Int32 {
        let options: Options, connection: DaemonConnection
        switch ClientCommand.start(args, command: "call", usage: usage, help: help, parse: parse, socket: \.socket) {
        case .exit(let status): return status
        case .ready(let o, let c): (options, connection) = (o, c)
        }
        let deadline = options.timeout.map { MonotonicClock.now() + $0 }
        // The events the request causes are not printed: ask for none, then the request.
        let lines = DaemonMessage.request(id: nil, method: "unsubscribe", params: JSONObject())
            + DaemonMessage.request(id: 1, method: options.method, params: options.params)
        guard connection.send(lines) else {
            Console.error(Exchange.whyClosed(connection) ?? "the daemon at \(options.socket) closed the connection before the request was sent")
            return 2
        }
        switch Exchange.response(on: connection, until: deadline) {
        case .result(let result):
            let status: Int32 = didNotHappen(method: options.method, result: result) ? 1 : 0
            return Console.print(.object(result), at: options.get) ? status : 3
        case .error(let code, let message):
            Console.error("\(code) \(message)")
            return 1
        case .gone(let why):
            Console.error(why)
            return 2
        case .timedOut:
            Console.error("no response from the daemon at \(options.socket) within \(Exchange.seconds(options.timeout ?? 0)) s")
            return 2
        }
    }

    /// Whether a result says the change it asked for did not happen.
    static func didNotHappen(method: String, result: JSONObject) -> Bool {
        result["applied"] == .bool(false)
            || result["outcome"] == .string("refused")
            || result["performed"] == .bool(false)
            || ((method == "validate" || method == "submit") && result["valid"] == .bool(false))
    }
}

/// Reading the answer to a request sent on a connection.
enum Exchange {
    enum Answer {
        case result(JSONObject)
        case error(code: Int, message: String)
        /// The daemon closed the connection or said it is going away.
        case gone(String)
        case timedOut
    }

    /// Reads until the response (formd answers this connection's requests in order, and a
    /// line it could not read at all is answered with id null).
    static func response(on connection: DaemonConnection, until deadline: Double?) -> Answer {
        while true {
            switch connection.readLine(until: deadline) {
            case .timedOut: return .timedOut
            case .closed: return .gone("the daemon at \(connection.path) closed the connection before answering")
            case .line(let line):
                switch DaemonMessage(line: line) {
                case .result(_, let result)?: return .result(result)
                case .error(_, let code, let message)?: return .error(code: code, message: message)
                case .notification(let method, let params)?:
                    if let why = DaemonMessage.goneReason(method, params, path: connection.path) { return .gone(why) }
                case nil: continue
                }
            }
        }
    }

    /// Why a daemon closed the connection before a request could be sent: what it said last
    /// (a `shutdown` or connection `error` notification), if it said anything.
    static func whyClosed(_ connection: DaemonConnection) -> String? {
        let deadline = MonotonicClock.now() + 1
        while case .line(let line) = connection.readLine(until: deadline) {
            if case .notification(let method, let params)? = DaemonMessage(line: line),
               let why = DaemonMessage.goneReason(method, params, path: connection.path) {
                return why
            }
        }
        return nil
    }

    /// Seconds for a message: `5`, `0.5`.
    static func seconds(_ v: Double) -> String {
        v == v.rounded() && v < 1e15 ? String(Int(v)) : String(v)
    }
}
