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

    /// Valid: the responder resigns and `submitted`. Invalid: `submitFailed` and focus
    /// moves to the first invalid field that can take it.
    mutating func submit(includeSecrets: Bool) -> CommandResult {
        let errors = invalidFields()
        var values: [FieldValue] = []
        var withheld: [String] = []
        var eventValues: [FieldValue] = []
        for f in fields {
            if f.attributes.masksText {
                withheld.append(f.id)
                if includeSecrets { values.append(FieldValue(field: f.id, text: f.text)) }
            } else {
                values.append(FieldValue(field: f.id, text: f.text))
                eventValues.append(FieldValue(field: f.id, text: f.text))
            }
        }
        if errors.isEmpty {
            if responder != nil { moveFocus(to: nil) }
            emit(.submitted(values: eventValues, withheld: withheld))
        } else {
            emit(.submitFailed(errors: errors))
            let invalid = fields.indices.filter { canFocus($0) && !fields[$0].validity.isValid }
            if let first = invalid.first { moveFocus(to: first) }
        }
        return .submission(valid: errors.isEmpty, values: values,
                           withheld: includeSecrets ? [] : withheld, errors: errors)
    }
}
