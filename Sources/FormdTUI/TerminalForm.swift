#if canImport(Glibc)
import Glibc
#endif
import FormdClient
import FormdJSON

/// `formd tui`: a terminal front end over the formd protocol.
///
/// It knows nothing of the form's rules. It loads the form with `defineForm`, turns each
/// key into a protocol request (`insertText`, `delete` with a unit and direction,
/// `moveCaret`, `pressReturn`, `focusNext`, `setRevealed`, `undo`, …), keeps a `FormView`
/// up to date from the events that come back, and draws that. A Return that submits
/// (a field whose return action is `submit`, or one that leaves the last field) ends
/// with the values (secrets included) on stdout. With `--socket` it joins a form that a
/// running `formd --listen` serves instead, shows what other clients do to it as it
/// happens, and leaves the daemon running when it ends.
public enum TerminalForm {
    /// Runs the front end with its own arguments; returns the exit status.
    public static func main(_ args: [String]) -> Int32 {
        let options: TerminalOptions
        do {
            options = try TerminalOptions.parse(args)
        } catch {
            printError("\(error.message)\nUsage: \(TerminalOptions.usage)\n  See 'formd tui --help' for more information.")
            return 2
        }
        if options.help {
            Console.write(1, Array((TerminalOptions.helpText + "\n").utf8))
            return 0
        }

        var form: FormController
        if let socket = options.socket {
            let connection: DaemonConnection
            do {
                connection = try DaemonConnection(socket: socket)
            } catch {
                printError(error.message)
                return 2
            }
            form = FormController(client: FormClient(connection: connection, form: options.form))
            if let problem = form.join() {
                printError(problem)
                return 2
            }
        } else {
            form = FormController()
            if let problem = form.load(path: options.formPath) {
                printError(problem)
                return 2
            }
        }
        if options.output == .env, let clash = OutputFormat.clash(among: form.view.fields.map(\.id), prefix: options.prefix) {
            printError("--output env: the fields \"\(clash.first)\" and \"\(clash.second)\" would both be the variable \(clash.name), so one value would be lost; use --output json")
            return 2
        }
        let tty: Int32
        do {
            tty = try RawTerminal.open()
        } catch {
            if case .noTerminal(let reason) = error { printError("needs a terminal: cannot open /dev/tty: \(reason)") }
            return 2
        }
        let outcome = form.run(tty: tty, title: options.title)
        RawTerminal.restore()
        switch outcome {
        case .submitted(let values):
            guard Console.write(1, options.output.format(values, prefix: options.prefix)) else {
                printError("cannot write the values to stdout: \(String(cString: strerror(errno)))")
                return 1
            }
            return 0
        case .cancelled:
            return 1
        case .lost(let why):
            printError(why)
            return 2
        }
    }

    static func printError(_ message: String) {
        Console.write(2, Array("formd tui: \(message)\n".utf8))
    }

}
