/// How `--listen` treats its clients.
public struct ListenOptions: Sendable {
    /// Most bytes of output that may wait for one client; past it the client is sent a
    /// final `error` notification and disconnected (`--max-client-buffer`).
    public var maxClientBuffer = 8 << 20
    /// How long a client that is being disconnected (or every client, when the daemon
    /// shuts down) may go without taking any of its last output before it is closed anyway.
    public var closeGrace = 3.0
    /// Clients served at once; one more is told so and closed (`--max-clients`).
    public var maxClients = 256
    /// Bytes of unfinished lines held for all clients together; the client whose input
    /// would take it past this is told so and closed (`--max-unfinished-input`).
    public var maxUnfinishedInput = 64 << 20
    /// Seconds an unfinished line may wait for more of it; then its client is told so and
    /// closed (`--line-timeout`).
    public var lineTimeout = 30.0

    public init() {}
}
