extension Form {
    /// The `formReset` event a `reset` would emit now (positions in `encoding`), without
    /// carrying it out: one field at a time is reset in a copy, so what the event will take
    /// can be counted before the reset is allowed.
    public func resetEvent(encoding: PositionEncoding) -> EventRecord {
        var list: [FieldSnapshot] = []
        list.reserveCapacity(fields.count)
        fields.withUnsafeBufferPointer { fields in
            for i in fields.indices {
                var field = fields[i]
                field.resetToInitial()
                list.append(FieldSnapshot(field, isFirstResponder: false, includeSecrets: false, encoding: encoding))
            }
        }
        let state = FormSnapshot(form: name, seq: seq + 1, firstResponder: nil, fields: list)
        return EventRecord(form: name, seq: seq + 1, event: .formReset(state))
    }
}
