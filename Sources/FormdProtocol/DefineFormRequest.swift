import FormdCore
import FormdJSON

extension Envelope {
    /// A `defineForm` request decoded straight from its bytes, its `fields` read spec by
    /// spec (`FieldSpecDecoder.fields(reading:maxDepth:)`) with no value tree for the
    /// array: a form of 10,000 fields is a 150 KB line. Its members may come in any order
    /// but `method` before `params`. Nil for any other line, and for any line the long way
    /// (`JSONParser` and `init(_:)`) would refuse, which it then words: a line this takes
    /// decodes to the envelope the long way gives it.
    public init?(defineForm bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        // The request, its params, `fields` and a spec nest four deep.
        guard maxDepth >= 4 else { return nil }
        var call: Call? = nil
        guard let (id, method) = Envelope.members(of: bytes, params: { r, method in
            guard method == "defineForm", var params = r.object(), let defined = Call(defineForm: &params, maxDepth: maxDepth),
                  r.end(params) else { return false }
            call = defined
            return true
        }), method == "defineForm", let call else { return nil }
        self.init(id: id, method: method, .success(call))
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
