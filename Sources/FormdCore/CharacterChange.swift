/// What an edit did, in whole characters: starting at character `startOffset` (byte
/// `startUTF8`), `removed` gave way to `inserted`. Trimmed to the characters that really
/// differ, and widened to whole clusters when an insert merged with a neighbour (typing a
/// combining accent after "e" replaces "e" with "é").
public struct CharacterChange: Equatable, Sendable {
    public var startOffset: Int
    public var startUTF8: Int
    public var removed: String
    public var removedCount: Int
    public var inserted: String
    public var insertedCount: Int

    /// Characters are compared by their bytes, not by canonical equivalence: a composed
    /// "é" replacing a decomposed one is a change.
    static func trimmed(old: String, new: [Substring], startOffset: Int, startUTF8: Int) -> CharacterChange {
        let oldChars = old.indices.map { old[$0..<old.index(after: $0)] }
        var p = 0
        while p < oldChars.count && p < new.count && oldChars[p].utf8.elementsEqual(new[p].utf8) { p += 1 }
        var q = 0
        while q < oldChars.count - p && q < new.count - p
                && oldChars[oldChars.count - 1 - q].utf8.elementsEqual(new[new.count - 1 - q].utf8) { q += 1 }
        let prefixBytes = oldChars[0..<p].reduce(0) { $0 + $1.utf8.count }
        let removed = oldChars[p..<(oldChars.count - q)]
        let inserted = new[p..<(new.count - q)]
        return CharacterChange(startOffset: startOffset + p, startUTF8: startUTF8 + prefixBytes,
                               removed: removed.joined(), removedCount: removed.count,
                               inserted: inserted.joined(), insertedCount: inserted.count)
    }
}
