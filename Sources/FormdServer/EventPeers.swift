import FormdCore

/// The other clients of a daemon, as the line handler sees them: where the events of a
/// command sent by one client go besides that client. Stdio has none (`NoPeers`).
public protocol EventPeers {
    /// The position encodings of the other clients that may receive events of `form`.
    func encodings(receiving form: String) -> EncodingSet
    /// Hands a command's events, with positions counted in `encoding`, to every other
    /// client that counts in `encoding` and whose subscription admits them.
    mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding)
}

/// No other clients: a stdio session.
public struct NoPeers: EventPeers {
    public init() {}
    @inline(__always) public func encodings(receiving form: String) -> EncodingSet { EncodingSet() }
    @inline(__always) public mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {}
}
