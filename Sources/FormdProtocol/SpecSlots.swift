import FormdBytes
import FormdJSON

/// The keys of a field spec: `id`, `configuration` and the options (`FieldOptions`), in the
/// order messages list them.
enum SpecKey: Int, CaseIterable {
    case id, configuration, label, placeholder, text, secure, revealed, enabled, returnAction, deleteOnEmpty
    case canBecomeFirstResponder, canResignFirstResponder, enablesReturnKeyAutomatically, clearsOnBeginEditing
    case required, minLength, maxLength, pattern, patternHint, inputFilter, autoAdvance, supportedEditActions, hints

    var name: String {
        switch self {
        case .id: "id"
        case .configuration: "configuration"
        case .label: "label"
        case .placeholder: "placeholder"
        case .text: "text"
        case .secure: "secure"
        case .revealed: "revealed"
        case .enabled: "enabled"
        case .returnAction: "returnAction"
        case .deleteOnEmpty: "deleteOnEmpty"
        case .canBecomeFirstResponder: "canBecomeFirstResponder"
        case .canResignFirstResponder: "canResignFirstResponder"
        case .enablesReturnKeyAutomatically: "enablesReturnKeyAutomatically"
        case .clearsOnBeginEditing: "clearsOnBeginEditing"
        case .required: "required"
        case .minLength: "minLength"
        case .maxLength: "maxLength"
        case .pattern: "pattern"
        case .patternHint: "patternHint"
        case .inputFilter: "inputFilter"
        case .autoAdvance: "autoAdvance"
        case .supportedEditActions: "supportedEditActions"
        case .hints: "hints"
        }
    }

    /// Every key by its name; a name compares as Swift strings do, as `ParamsReader`'s do.
    static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// The inline words of each name short enough to have them, by `rawValue` (nil for the
    /// longer names).
    private static let words = allCases.map { ShortASCII.words(of: $0.name) }

    /// The key named `name`. A short ASCII name (a spec's usual `id`, `text`, `label`) is
    /// equal to a key's exactly when their inline words are, so it is found by comparing
    /// those, without hashing it; any other goes to `byName`.
    static func named(_ name: String) -> SpecKey? {
        guard let target = ShortASCII.words(of: name) else { return byName[name] }
        for (i, candidate) in words.enumerated() where candidate.map({ $0 == target }) == true {
            return SpecKey(rawValue: i)
        }
        return nil
    }

    /// The option keys (all but `id` and `configuration`), one bit each.
    static let optionMask: UInt32 = (1 << UInt32(allCases.count)) - 1 - 0b11
}

/// A field spec's members, each in the slot of its key. A spec is read key by key in a
/// fixed order, so that its first error is always the same; here each read is a jump, where
/// a `ParamsReader` compares the key with each member's. A form of 10,000 fields is read
/// 10,000 times.
struct SpecSlots: ParamsValues {
    private let object: JSONObject
    /// The index in `object.members` of each key's member, by `SpecKey.rawValue`; -1 for none.
    private var slots = InlineArray<23, Int8>(repeating: -1)
    /// The keys that have a member, one bit each.
    private var present: UInt32 = 0
    private let location: ParamsReader.Location

    var path: String { location.text }
    static func spelling(of key: SpecKey) -> String { key.name }

    /// Whether any of `keys` (bits of `SpecKey`) has a member.
    func hasAny(_ keys: UInt32) -> Bool { present & keys != 0 }

    func lookup(_ key: SpecKey) -> JSONValue? {
        let i = slots[key.rawValue]
        // Not a `?:` with nil: JSONValue is nil-literal expressible, so that nil would be null.
        guard i >= 0 else { return Optional.none }
        return object.members[Int(i)].value
    }

    /// The members of `object`, any of the keys in `allowed` (bits of `SpecKey`) each at most
    /// once; fails on any other member as `ParamsReader` does, with its message.
    init(_ object: JSONObject, at location: ParamsReader.Location, allowed: UInt32) throws(ProtocolError) {
        if let slots = SpecSlots(members: object, at: location, allowed: allowed) {
            self = slots
        } else {
            // An unknown or repeated key: the reader finds it and words the error.
            self.init(try ParamsReader(object, at: location, allowed: SpecKey.allCases.filter { allowed & (1 << $0.rawValue) != 0 }.map(\.name)))
        }
    }

    /// The members of `object` if each is one of the keys in `allowed`, given once.
    private init?(members object: JSONObject, at location: ParamsReader.Location, allowed: UInt32) {
        self.object = object
        self.location = location
        for (i, member) in object.members.enumerated() {
            guard let key = SpecKey.named(member.key), allowed & (1 << key.rawValue) != 0,
                  present & (1 << key.rawValue) == 0 else { return nil }
            present |= 1 << key.rawValue
            slots[key.rawValue] = Int8(i)
        }
    }

    /// The spec keys of a checked reader (`configureField`'s params hold a spec's options
    /// beside keys of their own).
    init(_ r: ParamsReader) {
        object = r.object
        location = r.location
        for key in SpecKey.allCases {
            if let i = object.members.firstIndex(where: { $0.key == key.name }) {
                slots[key.rawValue] = Int8(i)
                present |= 1 << key.rawValue
            }
        }
    }
}
