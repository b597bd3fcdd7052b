/// What `fieldChanged` reports: the spec keys that changed, with their new values, and
/// the derived state that changed with them.
public struct FieldChanges: Equatable, Sendable {
    /// Changed spec keys (never `text`: text changes are `textChanged`).
    public var options = FieldOptions()
    public var configuration: [String]? = nil
    /// The new display, when masking was switched on or off.
    public var display: String? = nil
    /// The text, when it just became visible (unmasked). Never set while masked.
    public var text: String? = nil
    /// The selection, when masking was switched (positions count over the display).
    public var selection: TextRange? = nil
    public var visited: Bool? = nil
    public var touched: Bool? = nil

    public init(options: FieldOptions = FieldOptions(), configuration: [String]? = nil,
                display: String? = nil, text: String? = nil, selection: TextRange? = nil,
                visited: Bool? = nil, touched: Bool? = nil) {
        self.selection = selection
        self.options = options
        self.configuration = configuration
        self.display = display
        self.text = text
        self.visited = visited
        self.touched = touched
    }

    public var isEmpty: Bool { self == FieldChanges() }
}
