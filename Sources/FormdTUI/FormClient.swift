import FormdClient
import FormdJSON
import FormdServer

/// The answer to one request.
enum Reply {
    case result(JSONObject)
    case error(code: Int, message: String)

    /// The result object, or an empty one for an error (callers that only look at events).
    var object: JSONObject {
        if case .result(let o) = self { return o }
        return JSONObject()
    }
}

/// A protocol client: it writes JSON-RPC request lines and reads the protocol's output
/// lines back, either from an in-process `Session` (a form file of its own) or from a
/// running `formd --listen` over its socket (a form it shares with other clients).
/// Events go to a callback in the order they were written; the response is returned.
/// Nothing here looks at the engine.
struct FormClient {
    /// Exactly one of the two is set.
    private var session: Session?
    private let connection: DaemonConnection?
    private var nextID = 1
    private var output = JSONWriter(reservingCapacity: 4096)
    /// The form every request names (but `initialize`); nil: the default form.
    private let form: String?
    /// Why the daemon cannot be talked to any more, once that happened.
    private(set) var lost: String?

    /// A client of a form of its own.
    init() {
        session = Session()
        connection = nil
        form = nil
    }

    /// A client of `form` (nil: the default form) on the daemon at the other end of `connection`.
    init(connection: DaemonConnection, form: String?) {
        session = nil
        self.connection = connection
        self.form = form
    }

    /// The descriptor to poll for events other clients cause (none for a form of its own).
    var eventFD: Int32? { connection?.fd }

    /// Sends `method` with `params` and returns its response; every notification written
    /// before the response (the events the request caused) goes to `event` first.
    mutating func call(_ method: String, _ params: [(String, JSONValue)] = [],
                       event: (_ name: String, _ params: JSONObject) -> Void) -> Reply {
        let id = nextID
        nextID += 1
        var p = JSONObject()
        if let form, method != "initialize" { p.append("form", .string(form)) }
        for (k, v) in params { p.append(k, v) }
        let line = DaemonMessage.request(id: id, method: method, params: p)
        guard let connection else {
            output.removeAll()
            line.withUnsafeBytes { session!.handleLine(UnsafeRawBufferPointer(rebasing: $0.dropLast()), into: &output) }
            var reply = Reply.error(code: -32603, message: "no response to \(method)")
            let bytes = output.bytes
            var start = 0
            for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
                defer { start = i + 1 }
                switch DaemonMessage(line: Array(bytes[start..<i])) {
                case .notification(let name, let params)?: event(name, params)
                case .result(_, let result)?: reply = .result(result)
                case .error(_, let code, let message)?: reply = .error(code: code, message: message)
                case nil: break
                }
            }
            return reply
        }
        guard lost == nil else { return .error(code: 0, message: lost!) }
        guard connection.send(line) else { return disconnected("the daemon at \(connection.path) closed the connection") }
        while true {
            switch connection.readLine(until: nil) {
            case .timedOut, .closed:
                return disconnected("the daemon at \(connection.path) closed the connection")
            case .line(let bytes):
                switch DaemonMessage(line: bytes) {
                case .notification(let name, let params)?:
                    if let why = DaemonMessage.goneReason(name, params, path: connection.path) { return disconnected(why) }
                    event(name, params)
                case .result(_, let result)?: return .result(result)
                case .error(_, let code, let message)?: return .error(code: code, message: message)
                case nil: continue
                }
            }
        }
    }

    /// Hands the events that have arrived from other clients to `event`, without waiting.
    mutating func receive(event: (_ name: String, _ params: JSONObject) -> Void) {
        guard let connection, lost == nil else { return }
        while true {
            switch connection.readLine(until: MonotonicClock.now()) {
            case .timedOut: return
            case .closed:
                _ = disconnected("the daemon at \(connection.path) closed the connection")
                return
            case .line(let bytes):
                if case .notification(let name, let params)? = DaemonMessage(line: bytes) {
                    if let why = DaemonMessage.goneReason(name, params, path: connection.path) {
                        _ = disconnected(why)
                        return
                    }
                    event(name, params)
                }
            }
        }
    }

    private mutating func disconnected(_ why: String) -> Reply {
        lost = lost ?? why
        return .error(code: 0, message: lost!)
    }

}
