/// What one atom of a pattern accepts: a test on one character (grapheme cluster) of the
/// text, given as its Unicode scalar values.
///
/// Tests on scalars (ranges, general categories) accept only characters made of exactly
/// one scalar; a character of several scalars (a letter with a combining mark, CR LF, an
/// emoji sequence) is accepted only by `any`, by a `sequence` equal to it, and by
/// negations.
indirect enum CharacterPredicate: Hashable, Sendable {
    /// Every character (`.`).
    case any
    /// A one-scalar character whose scalar lies in one of the ranges.
    case scalars([ClosedRange<UInt32>])
    /// A one-scalar character whose General_Category is one of `categories` (bit masks of
    /// `GeneralCategories`).
    case categories(UInt32)
    /// The character made of exactly these scalars.
    case sequence([UInt32])
    case union([CharacterPredicate])
    case not(CharacterPredicate)

    /// Whether the character made of `scalars` (one or more) passes.
    func accepts(_ scalars: [UInt32]) -> Bool {
        switch self {
        case .any: return true
        case .scalars(let ranges): return scalars.count == 1 && ranges.contains { $0.contains(scalars[0]) }
        case .categories(let mask):
            return scalars.count == 1 && mask & GeneralCategories.bit(of: scalars[0]) != 0
        case .sequence(let s): return s == scalars
        case .union(let parts): return parts.contains { $0.accepts(scalars) }
        case .not(let p): return !p.accepts(scalars)
        }
    }

    /// `\d`: the ASCII digits 0-9.
    static let digit = CharacterPredicate.scalars([0x30...0x39])
    /// `\w`: ASCII letters, digits and the underscore.
    static let word = CharacterPredicate.scalars([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`: tab, line feed, vertical tab, form feed, carriage return, space, and the one
    /// character CR LF.
    static let space = CharacterPredicate.union([.scalars([0x09...0x0D, 0x20...0x20]), .sequence([0x0D, 0x0A])])
}

/// Unicode General_Category values as bits, for `\p{…}`, with the names the dialect takes.
enum GeneralCategories {
    /// The two-letter names in the order of their bits.
    static let names = ["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe",
                        "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn"]

    /// The mask of a category name: a two-letter name, or one letter for all its group.
    static func mask(named name: String) -> UInt32? {
        var mask: UInt32 = 0
        for (i, n) in names.enumerated() where n == name || (name.count == 1 && n.hasPrefix(name)) {
            mask |= 1 << UInt32(i)
        }
        return mask == 0 ? nil : mask
    }

    static func bit(of scalar: UInt32) -> UInt32 {
        guard let s = Unicode.Scalar(scalar) else { return bit(named: "Cs") }
        let index: Int
        switch s.properties.generalCategory {
        case .uppercaseLetter: index = 0
        case .lowercaseLetter: index = 1
        case .titlecaseLetter: index = 2
        case .modifierLetter: index = 3
        case .otherLetter: index = 4
        case .nonspacingMark: index = 5
        case .spacingMark: index = 6
        case .enclosingMark: index = 7
        case .decimalNumber: index = 8
        case .letterNumber: index = 9
        case .otherNumber: index = 10
        case .connectorPunctuation: index = 11
        case .dashPunctuation: index = 12
        case .openPunctuation: index = 13
        case .closePunctuation: index = 14
        case .initialPunctuation: index = 15
        case .finalPunctuation: index = 16
        case .otherPunctuation: index = 17
        case .mathSymbol: index = 18
        case .currencySymbol: index = 19
        case .modifierSymbol: index = 20
        case .otherSymbol: index = 21
        case .spaceSeparator: index = 22
        case .lineSeparator: index = 23
        case .paragraphSeparator: index = 24
        case .control: index = 25
        case .format: index = 26
        case .surrogate: index = 27
        case .privateUse: index = 28
        case .unassigned: index = 29
        @unknown default: index = 29
        }
        return 1 << UInt32(index)
    }

    private static func bit(named name: String) -> UInt32 { mask(named: name)! }
}
