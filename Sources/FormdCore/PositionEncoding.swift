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
        return other.measure(text[..<i])
    }

    /// `position` over a masked display (whole bullets) counted in `other`.
    func recountMasked(_ position: Int, to other: PositionEncoding) -> Int {
        position / bulletWidth * other.bulletWidth
    }
}
