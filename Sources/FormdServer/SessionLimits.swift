import FormdJSON

/// Bounds on what one input may cost. Each has a command-line flag.
public struct SessionLimits: Sendable {
    /// Longest accepted input line, in bytes (without the newline).
    public var maxLineBytes = 1 << 20
    /// Bytes of output a batch may produce before its remaining requests are refused.
    public var maxLineOutput = 16 << 20
    /// Bytes of stdio output that may wait to be written before formd stops reading input
    /// until its reader has taken enough of it.
    public var maxPendingOutput = 4 << 20
    /// Deepest accepted nesting of arrays and objects, at most `maxDepthCeiling`.
    public var maxDepth = JSONParser.defaultMaxDepth {
        didSet { maxDepth = min(maxDepth, SessionLimits.maxDepthCeiling) }
    }

    /// The deepest `maxDepth` may be. Values are released, compared and written
    /// recursively, one stack frame per level, so a deeper limit would let one line
    /// overflow the stack (at about 8000 levels in a debug build on an 8 MiB stack).
    public static let maxDepthCeiling = 4096

    public init() {}
}
