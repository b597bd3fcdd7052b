import FormdCore

/// Gives the clients that count positions in other encodings than the sender the events
/// of its command, recounted: the command is re-run on a copy of the engine as it was
/// before, once per encoding. Events without positions are the same in every encoding and
/// are not recomputed.
struct EncodingRecount: Sendable {
    /// The events of a re-run, reused.
    private var recounted: [EventRecord] = []

    mutating func deliver<Peers: EventPeers>(_ events: ArraySlice<EventRecord>, of command: FormCommand, on name: String,
                                             from encoding: PositionEncoding, to encodings: EncodingSet,
                                             before: FormEngine, peers: inout Peers) {
        let positional = events.contains { $0.event.carriesPositions }
        for other in encodings.encodings {
            guard positional else {
                peers.deliver(events, encoding: other)
                continue
            }
            var copy = before
            let recountedCommand = copy.command(command, on: name, recountedFrom: encoding, to: other)
            recounted.removeAll(keepingCapacity: true)
            // The command succeeded on this very state; in another encoding it does the same.
            let ok = (try? copy.perform(recountedCommand, on: name, encoding: other, events: &recounted)) != nil
            peers.deliver(ok && recounted.count == events.count ? recounted[...] : events, encoding: other)
        }
        recounted.removeAll(keepingCapacity: true)
    }
}
