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

/// A protocol client over an in-process `Session`: it writes JSON-RPC request lines and
/// reads the protocol's output lines back, exactly as a client of `formd` over a pipe
/// would. Events go to a callback in the order they were written; the response is
/// returned. Nothing here looks at the engine.
struct FormClient {
    private var session = Session()
    private var nextID = 1
    private var output = JSONWriter(reservingCapacity: 4096)

    /// Sends `method` with `params` and returns its response; every notification written
    /// before the response (the events the request caused) goes to `event` first.
    mutating func call(_ method: String, _ params: [(String, JSONValue)] = [],
                       event: (_ name: String, _ params: JSONObject) -> Void) -> Reply {
        let id = nextID
        nextID += 1
        var request = JSONObject()
        request.append("jsonrpc", .string("2.0"))
        request.append("id", .number(JSONNumber(id)))
        request.append("method", .string(method))
        var p = JSONObject()
        for (k, v) in params { p.append(k, v) }
        request.append("params", .object(p))
        var line = JSONWriter(reservingCapacity: 128)
        line.write(.object(request))

        output.removeAll()
        line.withUnsafeBytes { session.handleLine($0, into: &output) }

        var reply = Reply.error(code: -32603, message: "no response to \(method)")
        let bytes = output.bytes
        var start = 0
        for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") {
            defer { start = i + 1 }
            guard case .object(let message)? = try? JSONParser.parse(Array(bytes[start..<i])) else { continue }
            if let name = message["method"]?.stringValue {
                event(name, message["params"]?.objectValue ?? JSONObject())
            } else if let result = message["result"]?.objectValue {
                reply = .result(result)
            } else if let error = message["error"]?.objectValue {
                reply = .error(code: error["code"]?.numberValue?.intValue ?? 0,
                               message: error["message"]?.stringValue ?? "")
            }
        }
        return reply
    }
}
