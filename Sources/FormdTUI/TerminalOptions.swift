/// The command line of `formd tui`.
struct TerminalOptions {
    var formPath = ""
    /// `--socket`: join a form of a running daemon instead of loading a form file.
    var socket: String?
    /// `--form`: which of its forms (nil: the default form).
    var form: String?
    var output = OutputFormat.json
    var prefix = ""
    var title: String?
    var help = false

    static let usage = "formd tui [--output json|env] [--prefix <name>] [--title <text>] <form.json | - | --socket <path> [--form <name>]>"

    static let helpText = """
    OVERVIEW: Fill in a form in the terminal and print the values, for shell scripts.

    The form is drawn full-screen on /dev/tty, so stdout stays free for the answer:
    on submit the values are printed on stdout and formd exits 0; Escape or Ctrl-C
    cancels with nothing on stdout and exit status 1.

    With --socket it joins a form that a running 'formd --listen' serves: what other
    clients (scripts with 'formd call', editor plugins) do to it shows as it happens,
    what you type reaches them, and the daemon keeps running when you are done.

    USAGE: \(usage)

    ARGUMENTS:
      <form.json>             A form file ({"presets": {...}, "fields": [...]}, as for
                              'formd --form'); '-' reads it from stdin.

    OPTIONS:
      --output json|env       json (default): one JSON object, field id -> text, in
                              form order. env: one NAME='value' line per field,
                              shell-quoted, for eval (ids become shell names: other
                              characters than letters, digits and _ turn into _;
                              a form where two ids give one name is refused).
      --prefix <name>         Put <name> before every variable name (--output env).
      --title <text>          A title above the form.
      --socket <path>         Instead of a form file: join a form of the formd
                              --listen at <path>.
      --form <name>           With --socket: which form (default: "default").
      -h, --help              Show this help.

    KEYS:
      characters              insert at the caret (a paste is inserted whole)
      Backspace / Delete      delete the character before / after the caret
      Alt-Backspace, Ctrl-W   delete the word before the caret (Alt-D: after it)
      Ctrl-U / Ctrl-K         clear the field / delete to its end
      Left, Right, Home, End  move the caret (Ctrl-A, Ctrl-E: start, end; Ctrl- or
                              Alt-Left/Right: by word; with Shift: select)
      Tab / Shift-Tab         next / previous field (also Down / Up)
      Return                  what the field's return action says: next field, done,
                              or submit; Return that leaves the last field submits
      Ctrl-R                  reveal or hide a password field (with --socket:
                              revealed to every client of the form too)
      Ctrl-_ (Ctrl-/)         undo, as in readline
      Alt-_                   redo (also Ctrl-Alt-_, as Emacs's C-M-_)
      Ctrl-Z                  suspend (back with 'fg'); the form is redrawn as it was
      Ctrl-L                  redraw
      Escape, Ctrl-C          cancel

    A terminal too small for the focused field's label and text says so ("terminal
    too small: needs at least W×H") until it is made larger; until then keys
    but Escape, Ctrl-C and Ctrl-Z do nothing.

    EXIT STATUS:
      0 submitted, 1 cancelled, 2 usage error, unreadable or invalid form, no
      terminal, or (--socket) no daemon, no such form, or the daemon went away;
      128+N killed by signal N (the terminal is restored first).

    EXAMPLES:
      formd tui examples/login.json
      eval "$(formd tui --output env examples/login.json)" && echo "$email"
      formd tui --socket "$XDG_RUNTIME_DIR/formd.sock" --form login
    """

    struct UsageError: Error { var message: String }

    static func parse(_ args: [String]) throws(UsageError) -> TerminalOptions {
        var o = TerminalOptions()
        var path: String? = nil
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < args.count else { throw UsageError(message: "missing value for '\(flag)'") }
            return args[i]
        }
        while i < args.count {
            let arg = args[i]
            switch arg {
            case "-h", "--help":
                o.help = true
                return o
            case "--output", "-o":
                let v = try value(arg)
                guard let f = OutputFormat(rawValue: v) else {
                    throw UsageError(message: "'--output' takes json or env, got '\(v)'")
                }
                o.output = f
            case "--prefix": o.prefix = try value(arg)
            case "--title": o.title = try value(arg)
            case "--socket": o.socket = try value(arg)
            case "--form": o.form = try value(arg)
            default:
                if arg.hasPrefix("-") && arg != "-" { throw UsageError(message: "unknown option '\(arg)'") }
                if path != nil { throw UsageError(message: "unexpected argument '\(arg)' (one form file only)") }
                path = arg
            }
            i += 1
        }
        if o.socket != nil {
            if let path { throw UsageError(message: "give a form file or --socket, not both ('\(path)')") }
            return o
        }
        if o.form != nil { throw UsageError(message: "'--form' goes with '--socket <path>' (a form file holds one form)") }
        guard let path else { throw UsageError(message: "missing the form file (or --socket <path> to join a running formd --listen)") }
        o.formPath = path
        return o
    }
}
