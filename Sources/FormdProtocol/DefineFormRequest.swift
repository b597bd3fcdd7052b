import FormdCore
import FormdJSON

extension Envelope {
    private static let requestKeys: [StaticString] = ["jsonrpc", "id", "method", "params"]

    /// A `defineForm` request decoded straight from its bytes, its `fields` read spec by
    /// spec (`FieldSpecDecoder.fields(reading:maxDepth:)`) with no value tree for the
    /// array: a form of 10,000 fields is a 150 KB line. Its members may come in any order
    /// but `method` before `params`. Nil for any other line, and for any line the long way
    /// (`JSONParser` and `init(_:)`) would refuse, which it then words: a line this takes
    /// decodes to the envelope the long way gives it.
    public init?(defineForm bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        // The request, its params, `fields` and a spec nest four deep.
        guard maxDepth >= 4, var r = JSONObjectReader(bytes) else { return nil }
        var seen: UInt8 = 0
        var id: RequestID? = nil
        var call: Call? = nil
        while let key = r.nextKey(in: Envelope.requestKeys) {
            guard seen & (1 << key) == 0 else { return nil }
            seen |= 1 << key
            switch key {
            case 0:
                guard r.string() == "2.0" else { return nil }
            case 1:
                guard let value = r.scalar(), let valid = RequestID(value) else { return nil }
                id = valid
            case 2:
                guard r.string() == "defineForm" else { return nil }
            default:
                guard seen & 0b100 != 0, var params = r.object(), let defined = Call(defineForm: &params, maxDepth: maxDepth),
                      r.end(params) else { return nil }
                call = defined
            }
        }
        guard r.isAtEnd(), let call else { return nil }
        self.init(id: id, method: "defineForm", .success(call))
    }
}

extension Call {
    private static let defineFormKeys: [StaticString] = ["form", "fields", "presets"]

    /// The call of `defineForm` params read by `params` (a level below the request), as
    /// `MethodRegistry`'s entry makes it; nil wherever that entry would fail.
    init?(defineForm params: inout JSONObjectReader, maxDepth: Int) {
        var seen: UInt8 = 0
        var form: String? = nil
        var specs: [FieldSpec]? = nil
        var presets: [String: FieldOptions] = [:]
        while let key = params.nextKey(in: Call.defineFormKeys) {
            guard seen & (1 << key) == 0 else { return nil }
            seen |= 1 << key
            switch key {
            case 0:
                guard let name = params.string() else { return nil }
                form = name
            case 1:
                guard var array = params.array(),
                      let read = FieldSpecDecoder.fields(reading: &array, maxDepth: maxDepth - 3), params.end(array) else { return nil }
                specs = read
            default:
                guard case .object(let object)? = params.value(maxDepth: maxDepth - 2),
                      let read = try? FieldSpecDecoder.presets(object, path: "presets") else { return nil }
                presets = read
            }
        }
        guard params.isClosed, let specs else { return nil }
        self = .form(form ?? FormEngine.defaultForm, .defineForm(fields: specs, presets: presets))
    }
}
