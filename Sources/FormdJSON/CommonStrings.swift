/// Ready-made `String`s for the few short strings that appear in nearly every JSON-RPC
/// message (`"jsonrpc"`, `"2.0"`, `"id"`, `"method"`, ...).
///
/// Why: building a `String` from bytes always re-validates them and constructs the value,
/// even for 2-byte keys; a literal costs nothing. Recognising these few spellings by length
/// and one word compare is cheaper than that construction, and the protocol layer's
/// comparisons against literals then compare identical representations.
/// Anything not in the table takes the normal path, so correctness never depends on it.
enum CommonStrings {
    /// Returns the shared literal for `bytes[0..<count]` if it is one of the known strings.
    @inline(__always)
    static func lookup(_ p: UnsafePointer<UInt8>, count: Int) -> String? {
        switch count {
        case 2:
            if matches(p, "id") { return "id" }
        case 3:
            if matches(p, "2.0") { return "2.0" }
        case 4:
            if matches(p, "code") { return "code" }
            if matches(p, "data") { return "data" }
        case 5:
            if matches(p, "error") { return "error" }
        case 6:
            if matches(p, "method") { return "method" }
            if matches(p, "params") { return "params" }
            if matches(p, "result") { return "result" }
        case 7:
            if matches(p, "jsonrpc") { return "jsonrpc" }
            if matches(p, "message") { return "message" }
        default:
            break
        }
        return nil
    }

    /// Byte comparison against a literal of the same length (checked by the caller).
    @inline(__always)
    static func matches(_ p: UnsafePointer<UInt8>, _ word: StaticString) -> Bool {
        let w = word.utf8Start
        for k in 0..<word.utf8CodeUnitCount where p[k] != w[k] {
            return false
        }
        return true
    }
}
