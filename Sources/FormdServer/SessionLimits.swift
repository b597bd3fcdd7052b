import FormdJSON

/// Bounds on what one input may cost. Each has a command-line flag.
public struct SessionLimits: Sendable {
    /// Longest accepted input line, in bytes (without the newline).
    public var maxLineBytes = 1 << 20
    /// Deepest accepted nesting of arrays and objects.
    public var maxDepth = JSONParser.defaultMaxDepth

    public init() {}
}
