/// Strings for `JSONWriter`: each goes out quoted and escaped by `JSONCursor`, in the same
/// reservation as the punctuation around it (`,"key":` before, `:` after), so a member
/// is one capacity check.
extension JSONWriter {
    /// Appends `s` as a quoted, escaped JSON string.
    @inlinable
    public mutating func writeString(_ s: String) {
        writeQuoted(s, prefix: "", suffix: "")
    }

    /// Appends `prefix` (say `,"field":`) then `s` quoted: encoders write a key before
    /// nearly every value.
    @inlinable
    public mutating func writeString(_ s: String, after prefix: StaticString) {
        writeQuoted(s, prefix: prefix, suffix: "")
    }

    /// Appends `prefix`, the quoted `s`, then `suffix`. Lets the object writer emit
    /// `,"key":` as one piece instead of four.
    @inlinable
    mutating func writeQuoted(_ s: String, prefix: StaticString, suffix: StaticString) {
        write(upTo: prefix.utf8CodeUnitCount &+ JSONCursor.bound(s) &+ suffix.utf8CodeUnitCount) { c in
            c.raw(prefix)
            c.string(s)
            c.raw(suffix)
        }
    }
}
