/// A keystroke request's params read straight from its bytes, by `Envelope(compactKeystroke:)`:
/// string values, each key at most once. One slot per key, so reading one is a jump, not a
/// comparison of strings.
struct ScannedParams: ParamsSource {
    var method: KeystrokeMethod
    private var form: String? = nil
    private var field: String? = nil
    private var text: String? = nil
    private var direction: String? = nil
    private var unit: String? = nil
    private var demand: String? = nil

    init(_ method: KeystrokeMethod) { self.method = method }

    var path: String { "\(method.name) params" }
    static func spelling(of key: KeystrokeMethod.Key) -> String { key.name }

    func optionalString(_ key: KeystrokeMethod.Key) -> String? {
        switch key {
        case .form: form
        case .field: field
        case .text: text
        case .direction: direction
        case .unit: unit
        case .demand: demand
        }
    }

    mutating func set(_ key: KeystrokeMethod.Key, _ value: String) {
        switch key {
        case .form: form = value
        case .field: field = value
        case .text: text = value
        case .direction: direction = value
        case .unit: unit = value
        case .demand: demand = value
        }
    }
}
