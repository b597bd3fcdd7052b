/// Ready-made `String`s for the short strings that appear in nearly every message formd
/// reads: the JSON-RPC envelope's keys (`"jsonrpc"`, `"2.0"`, `"id"`, `"method"`, ...),
/// the keys of a per-field command's params (`"form"`, `"field"`, `"text"`, ...) and the
/// names of the methods a keystroke sends (`"insertText"`, `"pressReturn"`, ...).
///
/// Why: building a `String` from bytes always re-validates them and constructs the value,
/// even for 2-byte keys (about a hundred instructions); a literal costs nothing. A typical
/// request has five such strings. Recognising these spellings by length and a byte
/// compare is cheaper than that construction, and the protocol layer's comparisons
/// against literals then compare identical representations. Anything not in the table
/// takes the normal path, so correctness never depends on it.
enum CommonStrings {
    /// Returns the shared literal for `bytes[0..<count]` if it is one of the known strings.
    @inline(__always)
    static func lookup(_ p: UnsafePointer<UInt8>, count: Int) -> String? {
        switch count {
        case 2:
            if matches(p, "id") { return "id" }
            if matches(p, "to") { return "to" }
        case 3:
            if matches(p, "2.0") { return "2.0" }
            if matches(p, "end") { return "end" }
        case 4:
            if matches(p, "form") { return "form" }
            if matches(p, "text") { return "text" }
            if matches(p, "code") { return "code" }
            if matches(p, "data") { return "data" }
            if matches(p, "undo") { return "undo" }
            if matches(p, "redo") { return "redo" }
        case 5:
            if matches(p, "field") { return "field" }
            if matches(p, "start") { return "start" }
            if matches(p, "error") { return "error" }
        case 6:
            if matches(p, "method") { return "method" }
            if matches(p, "params") { return "params" }
            if matches(p, "result") { return "result" }
            if matches(p, "demand") { return "demand" }
            if matches(p, "become") { return "become" }
            if matches(p, "resign") { return "resign" }
            if matches(p, "delete") { return "delete" }
            if matches(p, "select") { return "select" }
        case 7:
            if matches(p, "jsonrpc") { return "jsonrpc" }
            if matches(p, "message") { return "message" }
            if matches(p, "setText") { return "setText" }
        case 9:
            if matches(p, "moveCaret") { return "moveCaret" }
            if matches(p, "focusNext") { return "focusNext" }
        case 10:
            if matches(p, "insertText") { return "insertText" }
        case 11:
            if matches(p, "pressReturn") { return "pressReturn" }
            if matches(p, "demandFocus") { return "demandFocus" }
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
