#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// How a run ended.
enum Outcome {
    case submitted(JSONObject)
    case cancelled
    /// The daemon (`--socket`) went away; the message says how.
    case lost(String)
}

/// One form being filled in: the protocol client, the view it keeps up to date from the
/// events, and the key loop that turns keys into requests.
struct FormController {
    private var client: FormClient
    private(set) var view = FormView()

    init(client: FormClient = FormClient()) { self.client = client }

    /// Sends a request and applies its events to the view.
    @discardableResult
    private mutating func call(_ method: String, _ params: [(String, JSONValue)] = []) -> Reply {
        var view = self.view
        let reply = client.call(method, params) { name, p in view.apply(event: name, p) }
        self.view = view
        return reply
    }

    /// Reads the form file, defines the form through the protocol and focuses its first
    /// field. Returns a message for stderr when that fails.
    mutating func load(path: String) -> String? {
        let bytes: [UInt8]
        switch FormController.read(path) {
        case .success(let b): bytes = b
        case .failure(let reason): return "cannot read form file \(path): \(reason.message)"
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return "bad form file \(path): not valid JSON: \(error.message)"
        }
        // A form file is what `formd --form` reads: `fields` and `presets` become the
        // `defineForm` params; nothing else (no `form`: this front end fills the default).
        guard case .object(let file) = value else {
            return "bad form file \(path): a form file must be a JSON object with \"fields\" (and optionally \"presets\"), got \(value.typeName)"
        }
        if let key = file.keys.first(where: { $0 != "fields" && $0 != "presets" }) {
            return "bad form file \(path): unknown key \"\(key)\" in the form file; allowed keys: fields, presets"
        }
        guard file["fields"] != nil else {
            return "bad form file \(path): missing \"fields\" (an array of field specs)"
        }
        initialize()
        if case .error(_, let message) = call("defineForm", file.members.map { ($0.key, $0.value) }) {
            return "bad form file \(path): \(message)"
        }
        call("focusNext")
        return nil
    }

    /// Joins the form a running daemon serves (`--socket`): its state as it is now, and the
    /// first field focused if no field has focus (a demand, not `focusNext`: another client
    /// that gave focus meanwhile keeps it where it is). Returns a message for stderr when that
    /// fails.
    mutating func join() -> String? {
        initialize()
        switch call("getState") {
        case .error(_, let message):
            return client.lost ?? message
        case .result(let state):
            view.apply(event: "formDefined", state)
        }
        if view.firstResponder == nil, let first = view.fields.first(where: { $0.enabled && $0.canBecomeFirstResponder }) {
            call("demandFocus", [("field", .string(first.id)), ("demand", .string("become"))])
        }
        return client.lost
    }

    private mutating func initialize() {
        call("initialize", [("clientInfo", .object(JSONObject([JSONMember(key: "name", value: .string("formd tui"))]))),
                            ("positionEncoding", .string("character"))])
    }

    /// The key loop: reads keys from the terminal, sends requests, redraws.
    mutating func run(tty: Int32, title: String?) -> Outcome {
        var renderer = ScreenRenderer(title: title)
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var size = RawTerminal.size()
        func draw(_ renderer: inout ScreenRenderer, _ view: FormView) {
            size = RawTerminal.size()
            RawTerminal.write(renderer.render(view, rows: size.rows, columns: size.columns))
        }
        draw(&renderer, view)
        while true {
            var fds = [pollfd(fd: tty, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: RawTerminal.redrawFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: client.eventFD ?? -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds.count), decoder.wantsFlush ? 40 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .cancelled
            }
            var keys: [Key] = []
            if ready == 0 { keys = decoder.flush() }
            if fds[1].revents != 0 && RawTerminal.takeRedraw() { RawTerminal.write(Array("\u{1b}[2J".utf8)) }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let n = Glibc.read(tty, &buffer, buffer.count)
                if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return .cancelled }
                if n > 0 { keys += decoder.feed(Array(buffer[0..<n])) }
            }
            // What other clients of a shared form did, before the keys act on it.
            receiveEvents()
            if !keys.isEmpty { view.notice = nil }
            var refused = false
            let fits = renderer.neededSize(view).fits(rows: size.rows, columns: size.columns)
            for key in keys {
                switch handle(key, editable: fits) {
                case .next: break
                case .refused: refused = true
                case .redraw: RawTerminal.write(Array("\u{1b}[2J".utf8))
                case .finish(let outcome): return outcome
                }
                if let why = client.lost { return .lost(why) }
            }
            receiveEvents()
            if let why = client.lost { return .lost(why) }
            if (view.notice != nil || refused) && !keys.isEmpty { RawTerminal.write([0x07]) }
            draw(&renderer, view)
        }
    }

    /// Applies the events other clients of a shared form caused.
    private mutating func receiveEvents() {
        var view = self.view
        client.receive { name, p in view.apply(event: name, p) }
        self.view = view
    }

    private enum Step {
        case next, redraw
        /// The key did nothing (the terminal is too small to show what it would edit).
        case refused
        case finish(Outcome)
    }

    /// One key: the requests it stands for. While the form cannot be shown (`editable`
    /// false) only the keys that need no form work: cancel, suspend, redraw.
    private mutating func handle(_ key: Key, editable: Bool) -> Step {
        switch key {
        case .escape, .control(0x03): return .finish(.cancelled)
        case .control(0x0C): return .redraw
        case .suspend:
            RawTerminal.suspend()
            return .next
        default:
            if !editable { return .refused }
        }
        guard let focused = view.focused else {
            switch key {
            case .tab, .down: call("focusNext")
            case .backTab, .up: call("focusPrevious")
            case .enter: return submit()
            default: break
            }
            return .next
        }
        func delete(_ direction: String, _ unit: String) {
            call("delete", [("direction", .string(direction)), ("unit", .string(unit))])
        }
        func move(_ to: String, _ extend: Bool) {
            call("moveCaret", [("to", .string(to)), ("extend", .bool(extend))])
        }
        switch key {
        case .text(let s):
            typeEach(s)
        case .paste(let s) where focused.autoAdvance:
            // A code pasted into one-character boxes: each box takes its character and
            // moves on, as the spec asks of clients (a whole paste is refused by maxLength).
            typeEach(FormController.singleLine(s))
        case .paste(let s):
            let text = FormController.singleLine(s)
            if !text.isEmpty { call("editAction", [("action", .string("paste")), ("text", .string(text))]) }
        case .enter:
            return pressReturn()
        case .tab, .down: call("focusNext")
        case .backTab, .up: call("focusPrevious")
        case .backspace: delete("backward", "character")
        case .delete: delete("forward", "character")
        case .deleteWordBackward: delete("backward", "word")
        case .deleteWordForward: delete("forward", "word")
        case .deleteToEnd: delete("forward", "line")
        case .left(let e): move("left", e)
        case .right(let e): move("right", e)
        case .wordLeft(let e): move("wordLeft", e)
        case .wordRight(let e): move("wordRight", e)
        case .home(let e): move("start", e)
        case .end(let e): move("end", e)
        case .control(0x12):
            if focused.secure {
                call("setRevealed", [("field", .string(focused.id)), ("revealed", .bool(!focused.revealed))])
            }
        case .control(0x15):
            if focused.length > 0 { call("setText", [("field", .string(focused.id)), ("text", .string(""))]) }
        case .undo: call("undo")
        case .redo: call("redo")
        default: break
        }
        return .next
    }

    /// One request per character, as a keyboard types them: a run arrives at once when
    /// typing is fast, and one-character fields must each get theirs (and advance) in turn.
    /// The last one may leave the form (autoAdvance): the rest has nowhere to go.
    private mutating func typeEach(_ s: String) {
        for c in s where view.firstResponder != nil { call("insertText", [("text", .string(String(c)))]) }
    }

    /// Return: the form's own handling; if it submitted, the values (secrets included)
    /// fetched with `getState`; if it left the last field, the submit that fetches them.
    private mutating func pressReturn() -> Step {
        view.submitted = false
        let action = call("pressReturn").object["action"]?.stringValue
        switch action {
        case "submit":
            return view.submitted ? submittedValues() : .next
        case "next", "resign":
            return view.firstResponder == nil ? submit() : .next
        default:
            return .next
        }
    }

    /// `submit {includeSecrets: true}`: the values when the form is valid; otherwise the
    /// `submitFailed` event has marked the fields whose errors to show, and the form
    /// stays open.
    private mutating func submit() -> Step {
        let result = call("submit", [("includeSecrets", .bool(true))]).object
        if result["valid"]?.boolValue == true, let values = result["values"]?.objectValue {
            return .finish(.submitted(values))
        }
        return .next
    }

    /// The values of a form just submitted: each field's text, in form order, secrets
    /// included (as `submit {includeSecrets: true}` gives them, without submitting twice).
    private mutating func submittedValues() -> Step {
        guard case .result(let state) = call("getState", [("includeSecrets", .bool(true))]) else { return .next }
        var values = JSONObject()
        for case .object(let field) in state["fields"]?.arrayValue ?? [] {
            if let id = field["id"]?.stringValue { values.append(id, field["text"] ?? .string("")) }
        }
        return .finish(.submitted(values))
    }

    /// A pasted text for a one-line field: line breaks and tabs become spaces, a final
    /// line break is dropped.
    static func singleLine(_ s: String) -> String {
        var t = s
        while let last = t.last, last == "\n" || last == "\r" || last == "\r\n" { t.removeLast() }
        return String(t.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
    }

    struct ReadError: Error { var message: String }

    /// A whole file (or stdin for `-`) with plain Glibc calls.
    static func read(_ path: String) -> Result<[UInt8], ReadError> {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadError(message: String(cString: strerror(errno)))) }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(message: String(cString: strerror(errno))))
            }
            if n == 0 { return .success(bytes) }
            bytes += chunk[0..<n]
        }
    }
}
