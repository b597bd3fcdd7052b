import FormdCore
import FormdProtocol

extension Daemon {
    /// Counts, before a `submit` or `reset` is carried out, the large output it would
    /// leave for `client` where that output must be held: its `submitted` or `formReset`
    /// event (`PiecewiseEvent.isLarge`; on stdio events are streamed, not held) and a large
    /// `submit` answer (`ClientState.place`). Throws the refusal, nothing carried out, or
    /// returns true when the answer is left to be streamed.
    func placeLargeOutput(_ command: FormCommand, on name: String, id: RequestID?, batchUsed: Int?,
                          client: inout ClientState) throws(ProtocolError) -> Bool {
        // Only these two can have large output; asked for the form, the engine copies it.
        switch command {
        case .submit, .reset: break
        default: return false
        }
        guard let form = engine.form(name) else { return false }
        let eventsHeld = switch client.answerDelivery {
        case .streamed: false
        case .whole: batchUsed != nil
        case .bounded: true
        }
        let method: String
        var answer: PiecewiseAnswer? = nil
        var event: EventRecord? = nil
        // What a submit emits before `submitted` when the responder resigns
        // (`responderChanged`, `fieldChanged`, `focusChanged`): small, bounded here.
        var before = 0
        switch command {
        case .submit(let includeSecrets):
            method = "submit"
            if let id {
                let submission = form.submission(includeSecrets: includeSecrets)
                if PiecewiseAnswer.isLarge(submission) { answer = PiecewiseAnswer(id: id, result: submission) }
            }
            if eventsHeld {
                event = form.submittedEvent()
                before = form.firstResponderID.map { 3 * (192 + 6 * ($0.utf8.count + name.utf8.count)) } ?? 0
            }
        case .reset:
            method = "reset"
            if eventsHeld { event = form.resetEvent(encoding: client.positionEncoding) }
        default:
            return false
        }
        if let record = event, !(PiecewiseEvent.isLarge(record) && client.receives(record)) { event = nil }
        guard answer != nil || event != nil else { return false }
        let framing = client.framing
        let placed = client.place(answer, method: method, event: event.map { record in
            (name: EventName(record.event).name, bytes: {
                let body = PiecewiseEvent(record).count()
                return before + body + framing.overhead(bodyBytes: body)
            })
        }, batchUsed: batchUsed, limits: limits)
        switch placed {
        case .write: return false
        case .streamed: return true
        case .refused(let error): throw error
        }
    }
}

extension ClientState {
    /// Whether this client gets `record` (a command's events all come from one form).
    func receives(_ record: EventRecord) -> Bool {
        switch subscription.reach(record.form) {
        case .nothing: false
        case .everything: true
        case .some: subscription.admits(record)
        }
    }
}
