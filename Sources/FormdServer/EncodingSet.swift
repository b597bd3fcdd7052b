import FormdCore

/// A set of position encodings.
public struct EncodingSet: OptionSet, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ encoding: PositionEncoding) {
        switch encoding {
        case .character: rawValue = 1
        case .utf8: rawValue = 2
        case .utf16: rawValue = 4
        case .utf32: rawValue = 8
        }
    }

    public var encodings: [PositionEncoding] { PositionEncoding.allCases.filter { contains(EncodingSet($0)) } }
}
