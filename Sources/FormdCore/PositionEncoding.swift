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
}
