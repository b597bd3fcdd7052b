import FormdCore
import FormdJSON

/// A form file: `{"presets": {NAME: partial spec}, "fields": [spec…]}`, as `--form`
/// loads it. Decoded with the same strict rules as `defineForm`, one field spec at a time
/// (see `spec(_:)`), so a large file never holds all its specs at once.
public struct FormFile {
    /// The parsed `fields` array, decoded on demand.
    private let fields: [JSONValue]
    public let presets: [String: FieldOptions]

    public var count: Int { fields.count }

    public init(bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(ProtocolError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: maxDepth)
        } catch {
            throw ProtocolError(.parseError, "not valid JSON: \(error.message)")
        }
        guard case .object(let o) = value else {
            throw .invalidParams("a form file must be a JSON object with \"fields\" (and optionally \"presets\"), got \(value.typeName)")
        }
        let r = try ParamsReader(o, path: "the form file", allowed: ["fields", "presets"])
        guard let fields = try r.optionalArray("fields") else {
            throw .invalidParams("missing \"fields\" (an array of field specs)")
        }
        self.fields = fields
        self.presets = try FieldSpecDecoder.presets(r.optionalObject("presets"), path: "presets")
    }

    /// Field spec `i`, decoded now; a bad one is an engine error naming it.
    public func spec(_ i: Int) throws(FormError) -> FieldSpec {
        do {
            return try FieldSpecDecoder.spec(fields[i], path: "fields[\(i)]")
        } catch {
            throw .invalidParams(error.message)
        }
    }
}
