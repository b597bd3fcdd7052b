#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// `formd wait`: blocks until a form event happens on a running `formd --listen`, then
/// prints its params, so a script can wait for a submit (or any other event).
public enum WaitCommand {
    public static let usage = "formd wait [--socket <path>] [--form <name>] [--field <id>] [--timeout <seconds>] <event> ..."

    static let help = """
    OVERVIEW: Wait for an event of a running 'formd --listen' and print its params.

    Waits for the first event with one of the given names that happens after it
    started (events from before are not replayed: start waiting before you cause
    or expect the event), prints its params as compact JSON on stdout and exits 0.
    This command never asks for secrets: a secure field's text is masked unless a
    client revealed it (setRevealed, Ctrl-R in 'formd tui'), which shows it to all.

    USAGE: \(usage)

    ARGUMENTS:
      <event>                 A form event: submitted, submitFailed, textChanged,
                              focusChanged, returnPressed, validityChanged, ...
                              (protocol/README.md, Events). Several: the first of any.

    OPTIONS:
      --socket <path>         The socket of the daemon (default: $FORMD_SOCKET).
      --form <name>           Only events of this form (default: any form). May be
                              given more than once.
      --field <id>            Only events about this field; events about the whole
                              form (submitted, submitFailed, focusChanged, formReset,
                              formDefined) still count. May be given more than once.
      --timeout <seconds>     Give up after <seconds> (default: wait for ever).
      -h, --help              Show this help.

    EXIT STATUS:
      0  the event came; its params are on stdout.
      1  the timeout passed first.
      2  a usage error (such as an unknown event name), no daemon at the socket, or
         the daemon went away while waiting (a message on stderr).

    EXAMPLES:
      export FORMD_SOCKET=$XDG_RUNTIME_DIR/formd.sock
      formd wait submitted                              # {"form":"default","seq":9,...}
      formd wait --form login --timeout 60 submitted submitFailed
      formd wait --field email textChanged
    """

    struct Options {
        var socket: String
        var forms: [String] = []
        var fields: [String] = []
        var events: [String] = []
        var timeout: Double?
    }

    /// Parses the command line; nil when it asks for help.
    static func parse(_ args: [String]) throws(UsageError) -> Options? {
        var reader = ArgumentReader(args)
        var socket: String? = nil
        var o = Options(socket: "")
        while let item = reader.next() {
            switch item {
            case .operand(let v): o.events.append(v)
            case .option("-h"), .option("--help"): return nil
            case .option("--socket"): socket = try reader.value(for: "--socket")
            case .option("--form"): o.forms.append(try reader.value(for: "--form"))
            case .option("--field"): o.fields.append(try reader.value(for: "--field"))
            case .option("--timeout"): o.timeout = try ClientOptions.seconds(reader.value(for: "--timeout"), flag: "--timeout")
            case .option(let option): throw ClientOptions.unknown(option)
            }
        }
        guard !o.events.isEmpty else { throw UsageError("missing the event to wait for, such as submitted") }
        o.socket = try ClientOptions.socket(socket)
        return o
    }

    /// Runs `formd wait ARGS`; returns the exit status.
    public static func main(_ args: [String]) -> Int32 {
        let options: Options, connection: DaemonConnection
        switch ClientCommand.start(args, command: "wait", usage: usage, help: help, parse: parse, socket: \.socket) {
        case .exit(let status): return status
        case .ready(let o, let c): (options, connection) = (o, c)
        }
        let deadline = options.timeout.map { MonotonicClock.now() + $0 }
        var rule = JSONObject()
        if !options.forms.isEmpty { rule.append("forms", .array(options.forms.map { .string($0) })) }
        if !options.fields.isEmpty { rule.append("fields", .array(options.fields.map { .string($0) })) }
        rule.append("events", .array(options.events.map { .string($0) }))
        guard connection.send(DaemonMessage.request(id: 1, method: "subscribe", params: rule)) else {
            Console.error(Exchange.whyClosed(connection) ?? "the daemon at \(options.socket) closed the connection before it was asked for events")
            return 2
        }
        switch Exchange.response(on: connection, until: deadline) {
        case .result: break
        case .error(let code, let message):
            // The daemon refused the subscription: a name it does not know.
            Console.error("\(code) \(message)")
            return 2
        case .gone(let why):
            Console.error(why)
            return 2
        case .timedOut:
            return timedOut(options)
        }
        while true {
            switch connection.readLine(until: deadline) {
            case .timedOut:
                return timedOut(options)
            case .closed:
                Console.error("the daemon at \(options.socket) closed the connection")
                return 2
            case .line(let line):
                guard case .notification(let method, let params)? = DaemonMessage(line: line) else { continue }
                if options.events.contains(method) {
                    Console.write(STDOUT_FILENO, DaemonMessage.compactLine(.object(params)))
                    return 0
                }
                if let why = DaemonMessage.goneReason(method, params, path: options.socket) {
                    Console.error(why)
                    return 2
                }
            }
        }
    }

    private static func timedOut(_ options: Options) -> Int32 {
        let names = options.events.joined(separator: " or ")
        Console.error("no \(names) within \(Exchange.seconds(options.timeout ?? 0)) s")
        return 1
    }
}
