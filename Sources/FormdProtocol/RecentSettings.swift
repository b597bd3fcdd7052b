import FormdCore
import FormdJSON
import Synchronization

/// The bytes `FieldEncoder.writeAttributes` wrote for the settings object of the fields
/// written last, kept once two fields in a row held it: a form's fields are mostly
/// configured alike, and a field's settings are 21 keys, about 560 bytes, where a large
/// form's state is written a field at a time (`PiecewiseEvent`) with no earlier field's
/// bytes at hand. One entry, so it holds one field's settings at most; shared by the
/// threads that write, so each field written takes its lock once or twice.
enum RecentSettings {
    private struct Entry: Sendable {
        /// The settings object last written (`FieldSnapshot.settingsObject`).
        var settings: (AnyObject & Sendable)? = nil
        /// Its bytes; empty while it has been written only once in a row.
        var bytes: [UInt8] = []
    }

    private static let entry = Mutex(Entry())

    /// Writes the settings of `f` after its id: the bytes kept for them, or
    /// `writeAttributes`, keeping the bytes it writes when the field before held the same.
    static func write(_ f: FieldSnapshot, to w: inout JSONWriter) {
        let settings = f.settingsObject
        let kept = entry.withLock { e -> [UInt8]? in e.settings === settings ? e.bytes : nil }
        if let kept, !kept.isEmpty {
            w.writeRaw(kept)
            return
        }
        let start = w.count
        FieldEncoder.writeAttributes(f.attributes, configuration: f.configuration, to: &w)
        let bytes = kept == nil ? [] : w.withUnsafeBytes { Array($0[start...]) }
        entry.withLock { $0 = Entry(settings: settings, bytes: bytes) }
    }
}
