import FormdProtocol

/// How a client takes a large `getState` or `submit` answer (`PiecewiseAnswer.isLarge`) to a request on a
/// line of its own. In a batch, whose answers are held until its array is whole, the
/// answer is counted against `--max-line-output` first, whatever the delivery.
public enum AnswerDelivery: Sendable {
    /// Written whole into the output (a `Session` in tests and the fuzzer).
    case whole
    /// Left in `ClientState.streamedAnswer` for the server to write a piece at a time (stdio).
    case streamed
    /// Written whole if its output may still hold it (`room` bytes of `--max-client-buffer`'s
    /// `limit`), else refused (`--listen`).
    case bounded(room: Int, limit: Int)
}

/// What becomes of a large `getState` or `submit` answer (`ClientState.place`).
enum AnswerPlacement {
    case write
    case streamed
    case refused(ProtocolError)
}

extension ClientState {
    /// Where `answer` goes: streamed, written whole, or refused when it would not fit where
    /// it must be held. `batchUsed`: the bytes a batch's answers took so far (nil for a
    /// request alone). The answer is counted (`PiecewiseAnswer.count`, nothing kept) only where
    /// a bound applies.
    mutating func place(_ answer: PiecewiseAnswer, batchUsed: Int?, limits: SessionLimits) -> AnswerPlacement {
        place(answer, method: answer.method, batchUsed: batchUsed, limits: limits)
    }

    /// `place`, for a request that also writes this client a large event first (`event`:
    /// its name, and its size with framing, counted only where a bound applies): the two
    /// must fit together. Without a large answer (nil), only the event is placed.
    mutating func place(_ answer: PiecewiseAnswer?, method: String, event: (name: String, bytes: () -> Int)? = nil,
                        batchUsed: Int?, limits: SessionLimits) -> AnswerPlacement {
        if let answer, batchUsed == nil, case .streamed = answerDelivery {
            streamedAnswer = answer
            return .streamed
        }
        let used = batchUsed ?? 0
        let batchRoom = batchUsed == nil ? Int.max : limits.maxLineOutput - used
        var clientRoom = Int.max, clientLimit = 0
        if case .bounded(let room, let limit) = answerDelivery { (clientRoom, clientLimit) = (room - used, limit) }
        if batchRoom == .max && clientRoom == .max { return .write }
        let size = (answer?.count() ?? 0) + (event?.bytes() ?? 0)
        let what = switch (answer, event) {
        case (nil, let event?): "\(event.name) event is"
        case (_?, let event?): "answer and \(event.name) event are"
        default: "answer is"
        }
        let unsaid = method == "getState" ? "it was counted and not written" : "the \(method) was counted and not carried out"
        if size > batchRoom {
            batchCut = true
            return .refused(ProtocolError(.limitExceeded, "limit maxLineOutput exceeded: this \(method)'s \(what) \(size) bytes and this batch's answers may take \(max(0, batchRoom)) more of \(limits.maxLineOutput), so \(unsaid); ask for it alone, not in a batch (raise it with --max-line-output)"))
        }
        if size > clientRoom {
            return .refused(ProtocolError(.limitExceeded, "limit maxClientBuffer exceeded: this \(method)'s \(what) \(size) bytes and this client's output may hold \(max(0, clientRoom)) more of \(clientLimit), so \(unsaid); the connection stays open (raise it with --max-client-buffer)"))
        }
        return .write
    }
}
