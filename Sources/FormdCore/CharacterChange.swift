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
    /// The untrimmed window, in characters: `windowRemoved` characters gave way to
    /// `windowInserted`. Their difference is the change in length, which a masked field
    /// reports (as a whole-display replacement) instead of anything trimmed: trimming
    /// compares the hidden characters.
    public var windowRemoved: Int
    public var windowInserted: Int

    /// Characters are compared by their bytes, not by canonical equivalence: a composed
    /// "é" replacing a decomposed one is a change. `old` and `new` hold `oldCount` and
    /// `newCount` characters; walking their indices allocates nothing.
    static func trimmed(old: String, oldCount: Int, new: Substring, newCount: Int,
                        startOffset: Int, startUTF8: Int) -> CharacterChange {
        var oi = old.startIndex, ni = new.startIndex
        var p = 0, prefixBytes = 0
        while oi < old.endIndex && ni < new.endIndex {
            let on = old.index(after: oi), nn = new.index(after: ni)
            guard old.utf8[oi..<on].elementsEqual(new.utf8[ni..<nn]) else { break }
            prefixBytes += old.utf8.distance(from: oi, to: on)
            oi = on
            ni = nn
            p += 1
        }
        var oe = old.endIndex, ne = new.endIndex
        var q = 0
        while q < oldCount - p && q < newCount - p {
            let ob = old.index(before: oe), nb = new.index(before: ne)
            guard old.utf8[ob..<oe].elementsEqual(new.utf8[nb..<ne]) else { break }
            oe = ob
            ne = nb
            q += 1
        }
        return CharacterChange(startOffset: startOffset + p, startUTF8: startUTF8 + prefixBytes,
                               removed: String(old[oi..<oe]), removedCount: oldCount - p - q,
                               inserted: String(new[ni..<ne]), insertedCount: newCount - p - q,
                               windowRemoved: oldCount, windowInserted: newCount)
    }
}
