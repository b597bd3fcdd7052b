import FormdJSON

/// One line of a daemon's output, as a client reads it.
public enum DaemonMessage {
    /// A success response; formd's results are always objects.
    case result(id: JSONValue, JSONObject)
    /// An error response.
    case error(id: JSONValue, code: Int, message: String)
    /// An event, or an `error`/`shutdown` notification.
    case notification(method: String, params: JSONObject)

    /// Deep enough for anything a daemon writes (its `--max-depth` is at most 4096, and
    /// its messages wrap what it read in a few levels).
    static let maxDepth = 4200

    /// The message on `line`, or nil when it is not one (a batch's array, which these
    /// clients never cause).
    public init?(line: [UInt8]) {
        guard case .object(let o)? = try? JSONParser.parse(line, maxDepth: Self.maxDepth) else { return nil }
        if let method = o["method"]?.stringValue {
            self = .notification(method: method, params: o["params"]?.objectValue ?? JSONObject())
        } else if let result = o["result"]?.objectValue {
            self = .result(id: o["id"] ?? .null, result)
        } else if let error = o["error"]?.objectValue {
            self = .error(id: o["id"] ?? .null, code: error["code"]?.numberValue?.intValue ?? 0,
                          message: error["message"]?.stringValue ?? "")
        } else {
            return nil
        }
    }

    /// A request line: `{"jsonrpc":"2.0","id":ID,"method":M,"params":P}` and `\n`
    /// (no `id`: a notification).
    public static func request(id: Int?, method: String, params: JSONObject) -> [UInt8] {
        var request = JSONObject()
        request.append("jsonrpc", .string("2.0"))
        if let id { request.append("id", .number(JSONNumber(id))) }
        request.append("method", .string(method))
        request.append("params", .object(params))
        var w = JSONWriter(reservingCapacity: 128)
        w.write(.object(request))
        w.writeRaw("\n")
        return w.bytes
    }

    /// `value` as compact JSON and `\n`, as formd writes it.
    static func compactLine(_ value: JSONValue) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 256)
        w.write(value)
        w.writeRaw("\n")
        return w.bytes
    }

    /// What a `shutdown` or `error` notification means for a client waiting on the daemon.
    public static func goneReason(_ method: String, _ params: JSONObject, path: String) -> String? {
        switch method {
        case "shutdown":
            return "the daemon at \(path) is shutting down (\(params["reason"]?.stringValue ?? "request"))"
        case "error" where params["line"] == nil:
            // Without `line` it is about the connection (refused, or its output overflowed).
            let code = params["code"]?.numberValue?.intValue ?? 0
            return "the daemon at \(path) ends the connection: \(code) \(params["message"]?.stringValue ?? "")"
        default:
            return nil
        }
    }
}
