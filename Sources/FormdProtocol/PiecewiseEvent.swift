import FormdCore
import FormdJSON

/// A `submitted` event or a whole form's state (`formReset`, `formDefined`) written a
/// piece at a time (its head, then one value or field each, then its end), so a large one
/// is streamed to a reader, or counted before it is held, without ever being built whole.
/// The pieces together are the bytes `EventEncoder.write` writes for the same record.
public struct PiecewiseEvent: PiecewiseMessage {
    public let record: EventRecord
    public var nextPiece = 0
    /// One item per value of a `submitted` event, per field of a state.
    public let items: Int

    /// `record` must be a `submitted`, `formReset` or `formDefined` event.
    public init(_ record: EventRecord) {
        self.record = record
        switch record.event {
        case .submitted(let values, _): items = values.count
        case .formReset(let s), .formDefined(let s): items = s.fields.count
        default: preconditionFailure("only a submitted event or a form's state is written a piece at a time")
        }
    }

    /// Whether `record` is a `submitted` event or a whole form's state that may be
    /// `PiecewiseAnswer.largeBytes` or more (its strings unescaped: a look at the counts).
    /// Every other event is small or bounded by the line that caused it. Inlined where
    /// events are written: a look at the kind, and a call to count only for those three.
    @inline(__always) @inlinable
    public static func isLarge(_ record: borrowing EventRecord) -> Bool {
        switch record.event {
        case .submitted, .formReset, .formDefined: isLargeState(record)
        default: false
        }
    }

    /// `isLarge` of a `submitted` event or a form's state.
    @usableFromInline
    static func isLargeState(_ record: EventRecord) -> Bool {
        switch record.event {
        case .submitted(let values, let withheld):
            PiecewiseAnswer.isLarge(items: values.count + withheld.count, bytesEach: 8) {
                PiecewiseAnswer.stringBytes(values: values, withheld: withheld)
            }
        case .formReset(let s), .formDefined(let s): PiecewiseAnswer.isLarge(s)
        default: false
        }
    }

    public func writePiece(_ i: Int, to w: inout JSONWriter) {
        switch record.event {
        case .submitted(let values, let withheld):
            w.writeValuesPiece(i, values, withheld: withheld) { writeOpening(.submitted, to: &$0) } end: { $0.writeRaw("}}") }
        case .formReset(let s), .formDefined(let s):
            s.writePiece(i, to: &w) { writeOpening(EventName(record.event), to: &$0) }
        default: preconditionFailure("checked by init")
        }
    }

    private func writeOpening(_ name: EventName, to w: inout JSONWriter) {
        w.write(upTo: EventEncoder.opening(record, name)) { EventEncoder.open(record, name, &$0) }
    }
}
