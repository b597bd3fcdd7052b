import FormdCore

/// Gives the clients that count positions in other encodings than the sender the events
/// of its command, recounted (`EventRecount`) from the engine as the command left it: the
/// cost is that of the fields the events are about. Events without positions are the
/// same in every encoding and are passed on as they are.
struct EncodingRecount: Sendable {
    /// The events recounted for one encoding, reused.
    private var recounted: [EventRecord] = []

    /// `basis` is the engine's `recountBasis` for `command` from before it ran; `engine`
    /// is the engine now.
    mutating func deliver<Peers: EventPeers>(_ events: ArraySlice<EventRecord>, on name: String,
                                             from encoding: PositionEncoding, to encodings: EncodingSet,
                                             basis: RecountBasis, engine: FormEngine, peers: inout Peers) {
        let positional = events.contains { $0.event.carriesPositions }
        for other in encodings.encodings {
            guard positional else {
                peers.deliver(events, encoding: other)
                continue
            }
            let recount = engine.recount(on: name, from: encoding, to: other, basis: basis)
            for var record in events {
                if record.event.carriesPositions { record.event = recount(record.event) }
                recounted.append(record)
            }
            peers.deliver(recounted[...], encoding: other)
            recounted.removeAll(keepingCapacity: true)
        }
    }
}
