import FormdCore
import FormdJSON
import FormdProtocol

/// The other connections, as the line handler of one of them sees them.
struct Peers: EventPeers {
    let all: [Connection]
    let asker: Connection
    /// `--max-client-buffer`: a large event is counted before it is written to a
    /// connection, and one that would not fit disconnects it instead.
    let maxClientBuffer: Int
    let now: Double

    /// The other open connections that may receive events of `form`.
    private func receivers(of form: String) -> LazyFilterSequence<[Connection]> {
        all.lazy.filter { [asker] c in
            guard c !== asker && c.phase == .open && !c.closed else { return false }
            if case .nothing = c.client.subscription.reach(form) { return false }
            return true
        }
    }

    func encodings(receiving form: String) -> EncodingSet {
        var set = EncodingSet()
        for c in receivers(of: form) { set.insert(EncodingSet(c.client.positionEncoding)) }
        return set
    }

    func readTexts(of form: String) -> Bool {
        receivers(of: form).contains { $0.client.textSync == .full }
    }

    mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {
        let large = events.contains { PiecewiseEvent.isLarge($0) }
        // The size of each large event, counted once for all the clients that get it.
        var bodies: [Int: Int] = [:]
        for c in all where c !== asker && c.phase == .open && !c.closed && c.client.positionEncoding == encoding {
            guard large else {
                ClientEvents.write(events, for: c.client, to: &c.out)
                continue
            }
            let fits = ClientEvents.write(events, for: c.client, to: &c.out, within: c.sent + maxClientBuffer) { i in
                if let known = bodies[i] { return known }
                let body = PiecewiseEvent(events[i]).count()
                bodies[i] = body
                return body
            }
            // It would not fit: the client is dropped before the event is built for it.
            if !fits { c.overflow(limit: maxClientBuffer, now: now) }
        }
    }
}
