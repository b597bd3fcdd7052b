import FormdCore
import FormdJSON
import FormdProtocol

/// Writes events as one client receives them: only those its subscription admits, shaped
/// by its `textSync`, each a message in its framing.
public enum ClientEvents {
    /// Writes the events of one command that `client` receives. For `EventPeers.deliver`.
    public static func write(_ events: ArraySlice<EventRecord>, for client: ClientState, to w: inout JSONWriter) {
        guard let all = receivesAll(events, client) else { return }
        for i in events.indices { write(events[i], all: all, for: client, to: &w) }
    }

    /// `write`, for the last use of a command's events: empties `events`, keeping its
    /// capacity. The records are written where they lie (`forEachInPlace`).
    static func drain(_ events: inout [EventRecord], for client: ClientState, to w: inout JSONWriter) {
        if let all = receivesAll(events[...], client) {
            events.forEachInPlace(events.indices) { write($0, all: all, for: client, to: &w) }
        }
        events.removeAll(keepingCapacity: true)
    }

    /// One event, as a message, if `client` gets it: `all` of its command's events, or
    /// this one by its subscription.
    static func write(_ record: EventRecord, all: Bool, for client: ClientState, to w: inout JSONWriter) {
        guard all || client.subscription.admits(record) else { return }
        let start = w.count
        EventEncoder.write(record, textSync: client.textSync, to: &w)
        w.endMessage(from: start, client.framing)
    }

    /// Whether `client` gets all of `events` (true), only those its subscription admits
    /// (false), or none (nil). Reads the form of the first event only: one command's
    /// events all come from one form.
    static func receivesAll(_ events: ArraySlice<EventRecord>, _ client: ClientState) -> Bool? {
        // Not `events.first?.form`: that copies the whole first event.
        if events.isEmpty { return nil }
        switch client.subscription.reach(events[events.startIndex].form) {
        case .nothing: return nil
        case .everything: return true
        case .some: return false
        }
    }
}
