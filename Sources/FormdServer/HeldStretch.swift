import FormdBytes
import FormdCore
import FormdJSON
import FormdProtocol

/// A response the stdio server's serving thread left as a value (`HeldEvents.respond`), for
/// the burst's second thread to write in its place: a keystroke's answer needs nothing of
/// the engine once its result is known. Plain bits, so holding and dropping one costs no
/// reference count.
struct HeldResponse: Sendable {
    /// Where in its stretch's bytes the response goes: after the events of the first
    /// `marksBefore` marks (its own command's events among them), before those of later ones.
    let offset: Int
    let marksBefore: Int
    /// The id's text, as the two words of the string holding it inline.
    let id: (UInt64, UInt64)
    /// The id is a string (quoted), not a number.
    let quoted: Bool
    let result: HeldResult
    let framing: Framing

    /// Nil for a response that is not plain bits: an id held out of line or null, or a
    /// result that is not a `HeldResult`.
    @inline(__always)
    init?(id: RequestID, result: CommandResult, framing: Framing, offset: Int, marksBefore: Int) {
        guard let held = HeldResult(result) else { return nil }
        switch id {
        case .number(let n):
            guard let words = ShortUTF8.inlineWords(of: n.literal) else { return nil }
            (self.id, quoted) = (words, false)
        case .string(let s):
            guard let words = ShortUTF8.inlineWords(of: s) else { return nil }
            (self.id, quoted) = (words, true)
        case .null:
            return nil
        }
        (self.result, self.framing, self.offset, self.marksBefore) = (held, framing, offset, marksBefore)
    }

    /// Writes it as the serving thread would have, framed.
    @inline(__always)
    func write(to w: inout JSONWriter) {
        let start = w.count
        MessageWriter.writeResponse(inlineID: id, quoted: quoted, compact: result.result, to: &w, newline: framing == .ndjson)
        if framing != .ndjson { w.endMessage(from: start, framing) }
    }
}

/// A compact result holding no string, as plain bits: the answers of keystrokes.
enum HeldResult: Sendable {
    case done
    case edit(applied: Bool, reason: RejectReason?)
    case returnPressed(ReturnOutcome)
    case demand(DemandOutcome)
    case selection(TextRange)

    /// Nil for a result that holds a string or is not compact.
    @inline(__always)
    init?(_ result: CommandResult) {
        switch result {
        case .done: self = .done
        case .edit(let applied, let reason): self = .edit(applied: applied, reason: reason)
        case .returnPressed(let outcome): self = .returnPressed(outcome)
        case .demand(let outcome): self = .demand(outcome)
        case .selection(let range): self = .selection(range)
        case .focus, .editAction, .state, .validation, .submission: return nil
        }
    }

    @inline(__always)
    var result: CommandResult {
        switch self {
        case .done: .done
        case .edit(let applied, let reason): .edit(applied: applied, reason: reason)
        case .returnPressed(let outcome): .returnPressed(outcome)
        case .demand(let outcome): .demand(outcome)
        case .selection(let range): .selection(range)
        }
    }
}

/// A stretch of a burst's output as the serving thread hands it over: a `HeldOutput`, whose
/// bytes lack the responses held as values, and those responses.
struct HeldStretch: Sendable {
    var output: HeldOutput
    var responses: [HeldResponse] = []

    /// Empties it for another stretch, keeping the room.
    mutating func removeAll() {
        output.removeAll()
        responses.removeAll(keepingCapacity: true)
    }

    /// Appends the output in order to `out`, the responses written in their places, flushing
    /// whenever `threshold` bytes wait (`HeldOutput.write`).
    mutating func write(to out: inout OutputChannel, flushingAt threshold: Int) {
        output.write(to: &out, responses: responses, flushingAt: threshold)
    }
}
