import FormdCore

/// The other clients of a daemon, as the line handler sees them: where the events of a
/// command sent by one client go besides that client. Stdio has none (`NoPeers`).
public protocol EventPeers {
    /// The position encodings of the other clients that may receive events of `form`.
    func encodings(receiving form: String) -> EncodingSet
    /// Whether another client that may receive events of `form` reads the text a
    /// `textChanged` carries (it syncs in full).
    func readTexts(of form: String) -> Bool
    /// Hands a command's events, with positions counted in `encoding`, to every other
    /// client that counts in `encoding` and whose subscription admits them.
    mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding)
}

extension EventPeers {
    /// Peers that do not say are taken to read texts.
    public func readTexts(of form: String) -> Bool { true }

    /// Whether the text of a `textChanged` that a command from `client` on `form` emits
    /// would be read: by `client` itself (it syncs in full), by a recount into the
    /// encodings `recounting`, by another client, or by `observer`
    /// (`FormEngine.setEventTexts`).
    @inline(__always)
    func textsRead(sender client: ClientState, on form: String, recounting: EncodingSet,
                   observer: (any CommandObserver)?) -> Bool {
        client.textSync == .full || !recounting.isEmpty || readTexts(of: form) || observer?.readsEventTexts == true
    }
}

/// No other clients: a stdio session.
public struct NoPeers: EventPeers {
    public init() {}
    @inline(__always) public func encodings(receiving form: String) -> EncodingSet { EncodingSet() }
    @inline(__always) public func readTexts(of form: String) -> Bool { false }
    @inline(__always) public mutating func deliver(_ events: ArraySlice<EventRecord>, encoding: PositionEncoding) {}
}
