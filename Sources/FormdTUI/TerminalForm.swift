#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// `formd tui`: a terminal front end over the formd protocol.
///
/// It knows nothing of the form's rules. It loads the form with `defineForm`, turns each
/// key into a protocol request (`insertText`, `delete` with a unit and direction,
/// `moveCaret`, `pressReturn`, `focusNext`, `setRevealed`, `undo`, …), keeps a `FormView`
/// up to date from the events that come back, and draws that. A Return that submits
/// (a field whose return action is `submit`, or one that leaves the last field) ends
/// with `submit {includeSecrets: true}`, whose values go to stdout.
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
            writeAll(1, Array((TerminalOptions.helpText + "\n").utf8))
            return 0
        }

        var form = FormController()
        if let problem = form.load(path: options.formPath) {
            printError(problem)
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
            guard writeAll(1, options.output.format(values, prefix: options.prefix)) else {
                printError("cannot write the values to stdout: \(String(cString: strerror(errno)))")
                return 1
            }
            return 0
        case .cancelled:
            return 1
        }
    }

    static func printError(_ message: String) {
        writeAll(2, Array("formd tui: \(message)\n".utf8))
    }

    /// Writes all of `bytes`; false if the descriptor refused them (errno says why).
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { b in
            var offset = 0
            while offset < b.count {
                let n = write(fd, b.baseAddress! + offset, b.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
