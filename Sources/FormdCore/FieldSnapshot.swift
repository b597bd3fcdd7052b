/// A field's state as `getState`, `formDefined` and `fieldAdded` report it.
///
/// `text` is nil when the field is masked and the caller did not ask for secrets, so a
/// snapshot can be handed to any encoder without leaking. The settings (`configuration`
/// and `attributes`) are the field's shared configuration object, not a copy of it: a
/// whole form's snapshot costs a reference per field for them, and an encoder can tell
/// fields configured alike apart from the rest by identity (`sharesSettings`).
public struct FieldSnapshot: Sendable {
    public var id: String
    private var settings: FieldConfiguration
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

    public init(_ field: borrowing Field, isFirstResponder: Bool, includeSecrets: Bool, encoding: PositionEncoding) {
        var field = copy field
        self.init(inPlace: &field, isFirstResponder: isFirstResponder, includeSecrets: includeSecrets, encoding: encoding)
    }

    /// The snapshot of `field` where it lies (`inout` only so that it is read in place: a
    /// field borrowed out of an array is copied whole first). An empty text, as every field
    /// of a form defined without texts has, is reported without walking it.
    init(inPlace field: inout Field, isFirstResponder: Bool, includeSecrets: Bool, encoding: PositionEncoding) {
        let masked = field.attributes.masksText
        let length = field.length
        let empty = length == 0
        self.init(id: field.id, settings: field.sharedConfiguration, text: includeSecrets || !masked ? field.text : nil,
                  display: empty ? "" : field.display, length: length,
                  selection: empty ? TextRange(start: 0, end: 0) : field.buffer.selection(encoding, masked: masked),
                  isFirstResponder: isFirstResponder, demand: field.demand, validity: field.validity,
                  dirty: empty ? !field.initialText.isEmpty : field.isDirty, visited: field.visited, touched: field.touched,
                  restoredWithoutSecret: field.restoredWithoutSecret)
    }

    /// Every member given.
    private init(id: String, settings: FieldConfiguration, text: String?, display: String, length: Int, selection: TextRange,
                 isFirstResponder: Bool, demand: Demand?, validity: Validity, dirty: Bool, visited: Bool, touched: Bool,
                 restoredWithoutSecret: Bool) {
        self.id = id
        self.settings = settings
        self.text = text
        self.display = display
        self.length = length
        self.selection = selection
        self.isFirstResponder = isFirstResponder
        self.demand = demand
        self.validity = validity
        self.dirty = dirty
        self.visited = visited
        self.touched = touched
        self.restoredWithoutSecret = restoredWithoutSecret
    }

    /// The preset names the field's spec lists.
    public var configuration: [String] {
        get { settings.configuration }
        set { settings = settings.replacing(configuration: newValue) }
    }

    /// The field's effective configuration.
    public var attributes: FieldAttributes {
        get { settings.attributes }
        set { settings = settings.replacing(attributes: newValue) }
    }

    /// True when both fields hold the very same settings object, so their `configuration`
    /// and `attributes` are the same values, byte for byte.
    public func sharesSettings(with other: FieldSnapshot) -> Bool { settings === other.settings }

    /// The settings object itself, for an encoder to tell by identity (`===`) that a field
    /// holds the same settings as one it wrote before.
    public var settingsObject: AnyObject & Sendable { settings }

    /// An empty, unmasked, valid field that nothing has happened to: a field of a form
    /// just defined without texts, whose state reads the same as every other such field's.
    public var isEmptyAndUntouched: Bool {
        length == 0 && text?.isEmpty == true && display.isEmpty && selection == TextRange(start: 0, end: 0, backward: false)
            && !isFirstResponder && demand == nil && validity.isValid && !dirty && !visited && !touched && !restoredWithoutSecret
    }
}

extension FieldSnapshot: Equatable {
    /// Equal in everything reported, whether or not the settings are shared.
    public static func == (a: FieldSnapshot, b: FieldSnapshot) -> Bool {
        a.id == b.id && (a.sharesSettings(with: b) || (a.configuration == b.configuration && a.attributes == b.attributes))
            && a.text == b.text && a.display == b.display && a.length == b.length && a.selection == b.selection
            && a.isFirstResponder == b.isFirstResponder && a.demand == b.demand && a.validity == b.validity
            && a.dirty == b.dirty && a.visited == b.visited && a.touched == b.touched
            && a.restoredWithoutSecret == b.restoredWithoutSecret
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
