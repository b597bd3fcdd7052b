/// The command line of `formd tui`.
struct TerminalOptions {
    var formPath = ""
    var output = OutputFormat.json
    var prefix = ""
    var title: String?
    var help = false

    static let usage = "formd tui [--output json|env] [--prefix <name>] [--title <text>] <form.json | ->"

    static let helpText = """
    OVERVIEW: Fill in a form in the terminal and print the values, for shell scripts.

    The form is drawn full-screen on /dev/tty, so stdout stays free for the answer:
    on submit the values are printed on stdout and formd exits 0; Escape or Ctrl-C
    cancels with nothing on stdout and exit status 1.

    USAGE: \(usage)

    ARGUMENTS:
      <form.json>             A form file ({"presets": {...}, "fields": [...]}, as for
                              'formd --form'); '-' reads it from stdin.

    OPTIONS:
      --output json|env       json (default): one JSON object, field id -> text, in
                              form order. env: one NAME='value' line per field,
                              shell-quoted, for eval (ids become shell names: other
                              characters than letters, digits and _ turn into _).
      --prefix <name>         Put <name> before every variable name (--output env).
      --title <text>          A title above the form.
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
      Ctrl-R                  reveal or hide a password field
      Ctrl-Z / Ctrl-Y         undo / redo
      Escape, Ctrl-C          cancel

    EXIT STATUS:
      0 submitted, 1 cancelled, 2 usage error, unreadable or invalid form, or no
      terminal; 128+N killed by signal N (the terminal is restored first).

    EXAMPLES:
      formd tui examples/login.json
      eval "$(formd tui --output env examples/login.json)" && echo "$email"
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
            default:
                if arg.hasPrefix("-") && arg != "-" { throw UsageError(message: "unknown option '\(arg)'") }
                if path != nil { throw UsageError(message: "unexpected argument '\(arg)' (one form file only)") }
                path = arg
            }
            i += 1
        }
        guard let path else { throw UsageError(message: "missing the form file") }
        o.formPath = path
        return o
    }
}
