import FormdCore
import FormdJSON
import FormdProtocol

/// The other connections, as the line handler of one of them sees them.
struct Peers: EventPeers {
    let all: [Connection]
    let asker: Connection

    func encodings(receiving form: String) -> EncodingSet {
        var set = EncodingSet()
        for c in all where c !== asker && c.phase == .open && !c.closed {
            if case .nothing = c.client.subscription.reach(form) { continue }
            set.insert(EncodingSet(c.client.positionEncoding))
        }
        return set
    }

    mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {
        for c in all where c !== asker && c.phase == .open && !c.closed && c.client.positionEncoding == encoding {
            ClientEvents.write(events, for: c.client, to: &c.out)
        }
    }
}
