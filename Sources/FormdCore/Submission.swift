/// Validation and submission of a whole form.
///
/// Disabled fields are not validated (as in HTML forms: a disabled field cannot be fixed
/// by the person), but their values are submitted.
extension Form {
    func invalidFields() -> [FieldErrors] {
        fields.compactMap { f in
            f.attributes.enabled && !f.validity.isValid ? FieldErrors(field: f.id, errors: f.validity.errors) : nil
        }
    }

    /// What `submit` answers, without carrying it out (counted first where a large answer
    /// must fit a bound): every field's text in form order, a secure field's only when
    /// `includeSecrets` (else it is named in `withheld`), and the invalid fields.
    public func submission(includeSecrets: Bool) -> CommandResult {
        var values: [FieldValue] = []
        var withheld: [String] = []
        for f in fields {
            if f.attributes.masksText {
                withheld.append(f.id)
                if !includeSecrets { continue }
            }
            values.append(FieldValue(field: f.id, text: f.text))
        }
        let errors = invalidFields()
        return .submission(valid: errors.isEmpty, values: values, withheld: includeSecrets ? [] : withheld, errors: errors)
    }

    /// The `submitted` event a `submit` would emit now, nil when the form is invalid (it
    /// would emit `submitFailed`), without carrying it out: counted first where the event
    /// must fit a bound. Its `seq` follows the focus events of a responder that resigns.
    public func submittedEvent() -> EventRecord? {
        guard case .submission(true, let values, let withheld, _) = submission(includeSecrets: false) else { return nil }
        var emittedBefore = 0
        if let r = responder, responderCanResign { emittedBefore = fields[r].touched ? 2 : 3 }
        return EventRecord(form: name, seq: seq + emittedBefore + 1, event: .submitted(values: values, withheld: withheld))
    }

    /// Valid: the responder resigns and `submitted` (never with a secure field's text).
    /// Invalid: `submitFailed` and focus moves to the first invalid field that can take it.
    mutating func submit(includeSecrets: Bool) -> CommandResult {
        let answer = submission(includeSecrets: includeSecrets)
        let event = includeSecrets ? submission(includeSecrets: false) : answer
        guard case .submission(let valid, let values, let withheld, let errors) = event else { preconditionFailure("a submission") }
        if valid {
            if responder != nil { moveFocus(to: nil) }
            emit(.submitted(values: values, withheld: withheld))
        } else {
            emit(.submitFailed(errors: errors))
            let invalid = fields.indices.filter { canFocus($0) && !fields[$0].validity.isValid }
            if let first = invalid.first { moveFocus(to: first) }
        }
        return answer
    }
}
