/// How positions in a field's text are counted on the wire, negotiated per client in
/// `initialize` the way LSP 3.17 negotiates `positionEncoding`: Neovim counts bytes, LSP
/// clients UTF-16 code units, a person characters.
public enum PositionEncoding: String, Sendable, CaseIterable {
    /// Grapheme clusters: what a person sees as one character. The default.
    case character
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case utf32 = "utf-32"

    /// Units one `•` of a masked display takes. Positions in a masked field count over
    /// its display, so they reveal nothing about the hidden text's encoding.
    var bulletWidth: Int { self == .utf8 ? 3 : 1 }

    /// The length of `s` in this encoding.
    func measure<S: StringProtocol>(_ s: S) -> Int {
        switch self {
        case .character: s.count
        case .utf8: s.utf8.count
        case .utf16: s.utf16.count
        case .utf32: s.unicodeScalars.count
        }
    }

    /// Units of this encoding in `text` before `i`, a scalar boundary. UTF-16 and UTF-32 are
    /// counted from the UTF-8 bytes (`scalarUnits`), which is faster than the standard
    /// library's views: they count through breadcrumbs made again after every edit.
    func units(in text: String, before i: String.Index) -> Int {
        switch self {
        case .character: return text.distance(from: text.startIndex, to: i)
        case .utf8: return text.utf8.distance(from: text.startIndex, to: i)
        case .utf16, .utf32:
            let bytes = text.utf8.distance(from: text.startIndex, to: i)
            return text.utf8.withContiguousStorageIfAvailable {
                PositionEncoding.scalarUnits(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[..<bytes])), pairs: self == .utf16)
            } ?? measure(text[..<i])
        }
    }

    /// UTF-32 units (scalars) in whole scalars of UTF-8, or UTF-16 units with `pairs`, eight
    /// bytes at a time: a byte 10xxxxxx continues a scalar, and one 11110xxx starts a scalar
    /// that takes two UTF-16 units.
    static func scalarUnits(_ bytes: UnsafeRawBufferPointer, pairs: Bool) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080
        // The number of bytes whose top bit `marks` has set.
        func count(_ marks: UInt64) -> Int { Int(truncatingIfNeeded: (((marks & high) >> 7) &* 0x0101_0101_0101_0101) >> 56) }
        var continuations = 0, fourByteLeads = 0, at = 0
        while at + 8 <= bytes.count {
            let w = bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            continuations &+= count(w & ~(w << 1))
            fourByteLeads &+= count(w & (w << 1) & (w << 2) & (w << 3))
            at &+= 8
        }
        while at < bytes.count {
            let b = UInt64(bytes[at])
            continuations &+= count(b & ~(b << 1))
            fourByteLeads &+= count(b & (b << 1) & (b << 2) & (b << 3))
            at &+= 1
        }
        return bytes.count - continuations + (pairs ? fourByteLeads : 0)
    }

    /// `position`, a character boundary of `text` counted in this encoding, counted in
    /// `other`: walks the text up to it.
    func recount(_ position: Int, in text: String, to other: PositionEncoding) -> Int {
        if self == other { return position }
        let i = switch self {
        case .character: text.index(text.startIndex, offsetBy: position)
        case .utf8: text.utf8.index(text.startIndex, offsetBy: position)
        case .utf16: text.utf16.index(text.startIndex, offsetBy: position)
        case .utf32: text.unicodeScalars.index(text.startIndex, offsetBy: position)
        }
        return other.units(in: text, before: i)
    }

    /// `position` over a masked display (whole bullets) counted in `other`.
    func recountMasked(_ position: Int, to other: PositionEncoding) -> Int {
        position / bulletWidth * other.bulletWidth
    }
}
