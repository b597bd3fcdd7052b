/// Bounds on what the engine keeps. Each has a command-line flag in `formd`.
public struct EngineLimits: Equatable, Sendable {
    /// Undo steps kept per field; the oldest are dropped first.
    public var maxUndoSteps: Int

    public init(maxUndoSteps: Int = 100) {
        self.maxUndoSteps = maxUndoSteps
    }
}
