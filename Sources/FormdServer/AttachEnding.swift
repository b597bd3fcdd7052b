#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// Why the daemon behind `formd attach` closed the connection, told from what passed through
/// the bridge without parsing it all: the last message the daemon wrote (kept as the tail of
/// its output) and the `shutdown` requests in the client's input (`ShutdownRequests`).
///
/// In order: the daemon's last message is a `shutdown` notification (another client or a
/// signal stopped it), or the answer `{}` to a `shutdown` request this client sent (its id),
/// or nothing at all after a `shutdown` notification this client sent (it is not answered),
/// or the client's input had ended (the daemon closes once it has answered everything). An
/// `error` notification without `line` ends the connection on purpose (an overflow, a
/// refusal): exit 1 with its message. Anything else is a lost daemon: killed or crashed.
struct AttachEnding {
    /// Enough for any message that ends a connection (they are short); a longer last message
    /// is a response or an event, which never does.
    static let tailLimit = 4096

    /// The last bytes the daemon wrote (at most 2 × `tailLimit`, at least `tailLimit` when it
    /// wrote that many), contiguous.
    private var tail: [UInt8] = []
    /// Whether the daemon wrote more than `tail` holds.
    private var trimmed = false
    private var shutdowns = ShutdownRequests()
    /// Whether the daemon wrote anything after this client's `shutdown` notification.
    private var receivedSinceNotification = false

    mutating func received(_ bytes: ArraySlice<UInt8>) {
        if shutdowns.notified { receivedSinceNotification = true }
        if bytes.count >= Self.tailLimit {
            // The old tail and the new read's suffix would not be contiguous.
            trimmed = trimmed || !tail.isEmpty || bytes.count > Self.tailLimit
            tail = Array(bytes.suffix(Self.tailLimit))
            return
        }
        tail.append(contentsOf: bytes)
        if tail.count > 2 * Self.tailLimit {
            tail.removeFirst(tail.count - Self.tailLimit)
            trimmed = true
        }
    }

    mutating func sent(_ bytes: ArraySlice<UInt8>) {
        shutdowns.read(bytes)
    }

    /// The exit status once the daemon closed the connection; says why on stderr when it is 1.
    func status(inputEnded: Bool, path: String) -> Int32 {
        let last = lastMessage()
        if case .object(let message)? = last {
            if message["method"]?.stringValue == "shutdown" { return 0 }
            if message["method"]?.stringValue == "error", let params = message["params"]?.objectValue, params["line"] == nil {
                let code = params["code"]?.numberValue?.intValue ?? 0
                return fail("the daemon at \(path) ended the connection: \(code) \(params["message"]?.stringValue ?? "")")
            }
        }
        if shutdowns.notified && !receivedSinceNotification { return 0 }
        if let last, answersShutdown(last) { return 0 }
        if inputEnded { return 0 }
        return fail("lost the daemon at \(path): it closed the connection without a shutdown (killed, or crashed?)")
    }

    /// Whether `message` is the answer `{}` to a `shutdown` this client sent (also inside a
    /// batch's array of answers).
    private func answersShutdown(_ message: JSONValue) -> Bool {
        switch message {
        case .object(let o):
            o["result"] == .object(JSONObject()) && o["id"].map(shutdowns.ids.contains) == true
        case .array(let items): items.contains(where: answersShutdown)
        default: false
        }
    }

    /// The daemon's last message: the last NDJSON line, or the body after the last
    /// `Content-Length` header (compact JSON holds no raw CR or LF, so neither can occur
    /// inside a message); nil when it is longer than the tail or not JSON (cut short).
    private func lastMessage() -> JSONValue? {
        var end = tail.endIndex
        let start: Int
        if tail.last == UInt8(ascii: "\n") {
            end -= 1
            guard let newline = tail[..<end].lastIndex(of: UInt8(ascii: "\n")) else {
                guard !trimmed else { return nil }
                return parse(tail[..<end])
            }
            start = newline + 1
        } else {
            guard let newline = tail.lastIndex(of: UInt8(ascii: "\n")), newline >= 3,
                  tail[(newline - 3)...newline].elementsEqual("\r\n\r\n".utf8) else { return nil }
            start = newline + 1
        }
        return parse(tail[start..<end])
    }

    private func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue? {
        // As deep as anything a daemon writes (its --max-depth is at most 4096).
        try? JSONParser.parse(Array(bytes), maxDepth: 4200)
    }

    private func fail(_ message: String) -> Int32 {
        let text = Array("formd: \(message)\n".utf8)
        _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return 1
    }
}
