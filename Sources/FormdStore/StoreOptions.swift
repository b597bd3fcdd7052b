/// How `--state` keeps the daemon's forms on disk.
public struct StoreOptions: Sendable {
    /// When the journal reaches the disk itself, beyond the page cache.
    public enum Fsync: String, Sendable, CaseIterable {
        /// fsync before every response is written: survives power loss. Slowest.
        case always
        /// fsync once per written burst (before the output of a burst is flushed).
        case batch
        /// Never fsync: survives a killed daemon (the kernel has the data), not power loss.
        case never
    }

    public var path: String
    public var fsync: Fsync
    /// Keep secure fields' text in the state files (created mode 0600) instead of dropping it.
    public var persistSecrets: Bool

    public init(path: String, fsync: Fsync = .batch, persistSecrets: Bool = false) {
        self.path = path
        self.fsync = fsync
        self.persistSecrets = persistSecrets
    }
}
