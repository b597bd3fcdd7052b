/// Why a pattern was refused: what is wrong or unsupported, and where.
public struct PatternError: Error, Equatable, Sendable {
    /// Where the offending construct starts, in characters (grapheme clusters) of the
    /// pattern counted from 0.
    public let offset: Int
    /// What is wrong, naming the construct and its offset.
    public let message: String

    init(_ offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    /// A construct other dialects have and formd's does not.
    static func unsupported(_ construct: String, _ offset: Int, _ advice: String = "") -> PatternError {
        PatternError(offset, "\(construct) at offset \(offset) is not supported" + (advice.isEmpty ? "" : "; \(advice)"))
    }
}
