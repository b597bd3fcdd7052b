/// A field's state as `getState`, `formDefined` and `fieldAdded` report it.
///
/// `text` is nil when the field is masked and the caller did not ask for secrets, so a
/// snapshot can be handed to any encoder without leaking.
public struct FieldSnapshot: Equatable, Sendable {
    public var id: String
    public var configuration: [String]
    public var attributes: FieldAttributes
    public var text: String?
    public var display: String
    public var length: Int
    public var selection: TextRange
    public var isFirstResponder: Bool
    public var demand: Demand?
    public var validity: Validity
    public var dirty: Bool
    public var visited: Bool
    public var touched: Bool
    /// Restored from `--state` without its secure text; see `Field.restoredWithoutSecret`.
    public var restoredWithoutSecret: Bool

    public init(_ field: Field, isFirstResponder: Bool, includeSecrets: Bool, encoding: PositionEncoding) {
        id = field.id
        configuration = field.spec.configuration
        attributes = field.attributes
        text = includeSecrets ? field.text : field.visibleText
        display = field.display
        length = field.length
        selection = field.buffer.selection(encoding, masked: field.attributes.masksText)
        self.isFirstResponder = isFirstResponder
        demand = field.demand
        validity = field.validity
        dirty = field.isDirty
        visited = field.visited
        touched = field.touched
        restoredWithoutSecret = field.restoredWithoutSecret
    }
}

/// A whole form's state; `seq` is the number of the last event the form emitted, so a
/// client that missed events can resync from here.
public struct FormSnapshot: Equatable, Sendable {
    public var form: String
    public var seq: Int
    public var firstResponder: String?
    public var fields: [FieldSnapshot]
}

/// One field's submitted value, in form order.
public struct FieldValue: Equatable, Sendable {
    public var field: String
    public var text: String
}

/// One invalid field and why.
public struct FieldErrors: Equatable, Sendable {
    public var field: String
    public var errors: [ValidationError]
}
