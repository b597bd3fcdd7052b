#if canImport(Glibc)
import Glibc
#endif
import FormdJSON
import FormdProtocol

/// `formd wait`: blocks until a form event happens on a running `formd --listen`, then
/// prints its params, so a script can wait for a submit (or any other event).
public enum WaitCommand {
    public static let usage = "formd wait [--socket <path>] [--form <name>] [--field <id>] [--allow-missing-form] [--timeout <seconds>] [--get <pointer>] <event> ..."

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
                              given more than once. A form the daemon does not
                              have is an error (exit 4), unless
                              --allow-missing-form is given.
      --allow-missing-form    Also wait for a --form that is not defined yet: its
                              events count once a client defines it (defineForm).
      --field <id>            Only events about this field; events about the whole
                              form (submitted, submitFailed, focusChanged, formReset,
                              formDefined) still count. May be given more than once.
      --timeout <seconds>     Give up after <seconds> (default: wait for ever).
      --get <pointer>         Print only the value at <pointer> in the event's
                              params, a JSON Pointer (RFC 6901: /values/email,
                              /text; ~1 is a '/' in a name): a string as its raw
                              text (no quotes, no escapes), anything else as
                              compact JSON; then a newline.
      -h, --help              Show this help.

    EXIT STATUS:
      0  the event came; its params (or the --get value) are on stdout.
      1  the timeout passed first.
      2  a usage error (such as an unknown event name), no daemon at the socket, or
         the daemon went away while waiting (a message on stderr).
      3  the event came but its params have nothing at the --get pointer (such as a
         masked field's text; a message on stderr says what is there).
      4  a --form the daemon does not have (without --allow-missing-form).

    EXAMPLES:
      export FORMD_SOCKET=$XDG_RUNTIME_DIR/formd.sock
      formd wait submitted                              # {"form":"default","seq":9,...}
      formd wait --form login --timeout 60 submitted submitFailed
      formd wait --field email textChanged
      email=$(formd wait --get /values/email submitted)
    """

    struct Options {
        var socket: String
        var forms: [String] = []
        var fields: [String] = []
        var events: [String] = []
        var timeout: Double?
        var allowMissingForm = false
        var get: ValuePointer?
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
            case .option("--socket"): socket = try reader.value(for: "--socket", once: socket)
            case .option("--form"): o.forms.append(try reader.value(for: "--form"))
            case .option("--field"): o.fields.append(try reader.value(for: "--field"))
            case .option("--timeout"): o.timeout = try ClientOptions.seconds(reader.value(for: "--timeout", once: o.timeout), flag: "--timeout")
            case .option("--allow-missing-form"):
                try reader.noValue(for: "--allow-missing-form")
                o.allowMissingForm = true
            case .option("--get"): o.get = try ValuePointer(reader.value(for: "--get", once: o.get))
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
        // The subscription, then (unless told to wait for forms to appear) whether each
        // --form exists: a `validate` of an unknown form is -32002 and changes nothing.
        var forms: [String] = []
        if !options.allowMissingForm {
            for form in options.forms where !forms.contains(form) { forms.append(form) }
        }
        var requests = DaemonMessage.request(id: 0, method: "subscribe", params: rule)
        for (i, form) in forms.enumerated() {
            var params = JSONObject()
            params.append("form", .string(form))
            requests += DaemonMessage.request(id: i + 1, method: "validate", params: params)
        }
        guard connection.send(requests) else {
            Console.error(Exchange.whyClosed(connection) ?? "the daemon at \(options.socket) closed the connection before it was asked for events")
            return 2
        }
        var unanswered = 1 + forms.count
        var missing: [String] = []
        // An event that came before the checks were answered; it counts once they pass.
        var first: JSONObject? = nil
        while true {
            switch connection.readLine(until: deadline) {
            case .timedOut:
                return timedOut(options)
            case .closed:
                Console.error("the daemon at \(options.socket) closed the connection")
                return 2
            case .line(let line):
                switch DaemonMessage(line: line) {
                case .result?:
                    unanswered -= 1
                case .error(let id, let code, let message)?:
                    unanswered -= 1
                    let check = (id.numberValue?.intValue).map { $0 - 1 }
                    guard let check, forms.indices.contains(check), code == ErrorCode.unknownForm.rawValue else {
                        // The daemon refused the subscription: a name it does not know.
                        Console.error("\(code) \(message)")
                        return 2
                    }
                    missing.append(forms[check])
                case .notification(let method, let params)?:
                    if options.events.contains(method) {
                        if first == nil { first = params }
                    } else if let why = DaemonMessage.goneReason(method, params, path: options.socket) {
                        Console.error(why)
                        return 2
                    }
                case nil:
                    continue
                }
                guard unanswered == 0 else { continue }
                if !missing.isEmpty {
                    let names = missing.map { "\"\($0)\"" }.joined(separator: ", ")
                    Console.error("the daemon at \(options.socket) has no form\(missing.count > 1 ? "s" : "") \(names) (check --form; to wait until a client defines it, add --allow-missing-form)")
                    return 4
                }
                if let first { return Console.print(.object(first), at: options.get) ? 0 : 3 }
            }
        }
    }

    private static func timedOut(_ options: Options) -> Int32 {
        let names = options.events.joined(separator: " or ")
        Console.error("no \(names) within \(Exchange.seconds(options.timeout ?? 0)) s")
        return 1
    }
}
