/// A field as a form file, `defineForm` or `addField` describes it.
public struct FieldSpec: Equatable, Sendable {
    public var id: String
    /// Preset names applied in order before `options`.
    public var configuration: [String]
    /// The keys the field sets itself; they win over its presets.
    public var options: FieldOptions

    public init(id: String, configuration: [String] = [], options: FieldOptions = FieldOptions()) {
        self.id = id
        self.configuration = configuration
        self.options = options
    }
}
