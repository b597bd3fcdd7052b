/// How `--state` keeps the daemon's forms on disk.
public struct StoreOptions: Sendable {
    /// When the journal reaches the disk itself, beyond the page cache. Whatever the
    /// policy, a command's record is written to the journal file before any output that
    /// answers it, so a killed daemon never loses an answered command; the policy says
    /// whether that also holds after a power loss or OS crash.
    public enum Fsync: String, Sendable, CaseIterable {
        /// fsync each command's record as it is made, before its response can be written:
        /// survives power loss. One fsync per state-changing command.
        case always
        /// Write and fsync the records of a burst once, just before the burst's output is
        /// flushed: every answered command survives power loss, at one fsync per burst.
        case batch
        /// Never fsync the journal: survives a killed daemon (the kernel has the data),
        /// not a power loss.
        case never
    }

    public var path: String
    public var fsync: Fsync
    /// Keep secure fields' text in the state files instead of dropping it. (Every state
    /// file is mode 0600 either way.)
    public var persistSecrets: Bool
    /// Compact the journal into a snapshot once it holds this many bytes (or twice the
    /// snapshot's size, if that is more).
    public var compactAfterBytes: Int
    /// Deepest JSON nesting read back from the state files (hints nest as deep as the
    /// session allowed, plus a few levels of record structure).
    public var maxDepth: Int

    public init(path: String, fsync: Fsync = .batch, persistSecrets: Bool = false,
                compactAfterBytes: Int = 1 << 20, maxDepth: Int = 1024) {
        self.path = path
        self.fsync = fsync
        self.persistSecrets = persistSecrets
        self.compactAfterBytes = compactAfterBytes
        self.maxDepth = maxDepth
    }
}
