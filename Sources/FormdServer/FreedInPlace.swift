/// A value a list frees where it lies (`HeldOutput.write`, `Array.freeSpent`): it tells,
/// reading itself in place, whether destroying it would release nothing, so such values
/// are left as they lie (sparing the destroying a call per string) and the list is then
/// emptied by setting its count to zero (`Array.forgetFreed`).
protocol FreedInPlace {
    /// Whether destroying the value at `slot` would release nothing.
    static func releasesNothing(_ slot: UnsafeMutablePointer<Self>) -> Bool
}

extension FreedInPlace {
    /// Frees the value at `slot`, leaving the slot to be forgotten: destroyed when it holds
    /// anything to release, left as it is when it holds none.
    @inline(__always)
    static func freeInPlace(_ slot: UnsafeMutablePointer<Self>) {
        if !releasesNothing(slot) { slot.deinitialize(count: 1) }
    }
}

extension Array where Element: FreedInPlace {
    /// Whether a list is worth freeing element by element, those that hold nothing to
    /// release (`releasesNothing`) left as they lie: at least a quarter of its first eight
    /// hold nothing. A stream whose ids are held out of line holds them in every element,
    /// and such a list is destroyed faster in one pass; one with long texts has them in
    /// some elements only.
    @inline(__always)
    mutating func mostlyReleasesNothing() -> Bool {
        let looked = Swift.min(count, 8)
        return withUnsafeMutableBufferPointer { elements in
            var nothing = 0
            for i in 0..<looked where Element.releasesNothing(elements.baseAddress! + i) { nothing &+= 1 }
            return looked > 0 && nothing &* 4 >= looked
        }
    }

    /// Whether the list's storage holds its count and capacity in the two words before its
    /// first element, as the library lays an array out, so `forgetFreed` can empty it.
    /// False for an empty list.
    mutating func countIsInHeader() -> Bool {
        let count = self.count, capacity = self.capacity
        guard count > 0 else { return false }
        return withUnsafeMutableBufferPointer { elements in
            let header = UnsafeRawPointer(elements.baseAddress!) - 2 * MemoryLayout<Int>.stride
            return header.load(as: Int.self) == count && Int(header.load(fromByteOffset: MemoryLayout<Int>.stride, as: UInt.self) &>> 1) == capacity
        }
    }

    /// Empties the list, keeping its capacity, without destroying what is left in it:
    /// every element in it was freed in place (`freeInPlace`) after `countIsInHeader` said
    /// yes.
    mutating func forgetFreed() {
        withUnsafeMutableBufferPointer { elements in
            (UnsafeMutableRawPointer(elements.baseAddress!) - 2 * MemoryLayout<Int>.stride).storeBytes(of: 0, as: Int.self)
        }
    }
}
