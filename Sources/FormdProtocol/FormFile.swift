import FormdCore
import FormdJSON

/// A form file: `{"presets": {NAME: partial spec}, "fields": [spec…]}`, as `--form`
/// loads it. Decoded with the same strict rules as `defineForm`.
public enum FormFile {
    public static func command(from bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(ProtocolError) -> FormCommand {
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
        return .defineForm(fields: try FieldSpecDecoder.fields(fields, path: "fields"),
                           presets: try FieldSpecDecoder.presets(r.optionalObject("presets"), path: "presets"))
    }
}
