import FormdCore
import FormdJSON
import FormdProtocol

/// A `--listen` client's own events: written at once, as `ImmediateEvents` writes them, but
/// a large one (`PiecewiseEvent.isLarge`) only if the client's output still holds it within
/// `end`; otherwise it is not built, and `overflowed` tells the server to disconnect the
/// client as overflowing. (A `submit` or `reset` is refused before it is carried out when
/// its event would not fit: `Daemon.placeLargeOutput`; this catches the rest, such as a
/// large `formDefined`.)
struct BoundedEvents: EventSink {
    var records: [EventRecord] = []
    /// The size the client's output may reach: what was already sent plus `--max-client-buffer`.
    var end = Int.max
    /// A large event did not fit; the events after it were not written either.
    var overflowed = false

    mutating func emitted(from start: Int, form name: String, for client: inout ClientState, to w: inout JSONWriter) {
        guard records[start...].contains(where: { PiecewiseEvent.isLarge($0) }) else {
            ClientEvents.drain(&records, for: client, to: &w)
            return
        }
        if !ClientEvents.write(records[start...], for: client, to: &w, within: end, body: { PiecewiseEvent(records[$0]).count() }) {
            overflowed = true
        }
        records.removeAll(keepingCapacity: true)
    }
}

extension ClientEvents {
    /// `write`, for events of which some are large: each large one is counted before it is
    /// written (`body(i)`: the size of `events[i]`, nothing kept), and written only if `w`
    /// then stays within `end` bytes. False, the rest left unwritten, when one would not.
    static func write(_ events: ArraySlice<EventRecord>, for client: ClientState, to w: inout JSONWriter,
                      within end: Int, body: (Int) -> Int) -> Bool {
        guard let all = receivesAll(events, client) else { return true }
        for i in events.indices where all || client.subscription.admits(events[i]) {
            if PiecewiseEvent.isLarge(events[i]) {
                let size = body(i)
                if w.count + size + client.framing.overhead(bodyBytes: size) > end { return false }
            }
            write(events[i], all: true, for: client, to: &w)
        }
        return true
    }
}
