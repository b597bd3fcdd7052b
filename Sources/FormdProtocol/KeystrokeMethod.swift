import FormdCore

/// The methods typing sends, a request per key press: the ones a daemon in a keystroke
/// loop decodes most. Their params are all strings. A keystroke request without escapes
/// has its params read straight from its bytes (`ScannedParams`, see
/// `Envelope(keystroke:)`), any other from its parsed object (`ParamsReader`); both build
/// the call here, so the two ways cannot disagree.
public enum KeystrokeMethod: Int, CaseIterable, Sendable {
    case insertText, setText, delete, pressReturn, demandFocus

    /// The keys of the methods' params.
    public enum Key: Int, CaseIterable, Sendable {
        case form, field, text, direction, unit, demand

        /// The key as a literal, for matching a request's bytes against: where the key is
        /// known, it folds into the code comparing them.
        @inline(__always)
        var spelling: StaticString {
            switch self {
            case .form: "form"
            case .field: "field"
            case .text: "text"
            case .direction: "direction"
            case .unit: "unit"
            case .demand: "demand"
            }
        }

        var name: String { spelling.description }

        /// The key's bit in a set of keys (`1 << rawValue`), spelt out: in the scan, reading
        /// `rawValue` is a call.
        @_transparent
        var bit: UInt8 {
            switch self {
            case .form: 1
            case .field: 2
            case .text: 4
            case .direction: 8
            case .unit: 16
            case .demand: 32
            }
        }
    }

    /// The name as a literal, for matching a request's bytes against (see `Key.spelling`).
    @inline(__always)
    var spelling: StaticString { names.spelling }

    /// The name as a string literal, which costs nothing to make or compare (made from
    /// `spelling`, it would be built anew for every request).
    @inline(__always)
    var name: String { names.name }

    /// The name both ways, written once.
    @inline(__always)
    private var names: (spelling: StaticString, name: String) {
        switch self {
        case .insertText: ("insertText", "insertText")
        case .setText: ("setText", "setText")
        case .delete: ("delete", "delete")
        case .pressReturn: ("pressReturn", "pressReturn")
        case .demandFocus: ("demandFocus", "demandFocus")
        }
    }

    /// The keys the method takes, one bit each (`Key.bit`).
    @inline(__always)
    var keyMask: UInt8 {
        switch self {
        case .insertText, .setText: 0b000111
        case .delete: 0b011011
        case .pressReturn: 0b000011
        case .demandFocus: 0b100011
        }
    }

    /// The keys the method takes, spelt out (for `ParamsReader`'s check and its message).
    var keyNames: [String] { Key.allCases.filter { keyMask & $0.bit != 0 }.map(\.name) }

    /// The call for params holding only keys the method takes.
    func call<Params: ParamsSource>(_ r: Params) throws(ProtocolError) -> Call where Params.Key == Key {
        let command: FormCommand
        switch self {
        case .insertText:
            command = .insertText(field: try r.optionalString(.field), text: try r.string(.text))
        case .setText:
            command = .setText(field: try r.string(.field), text: try r.string(.text))
        case .delete:
            command = .delete(field: try r.optionalString(.field),
                              direction: try r.optionalEnum(.direction, DeleteDirection.self) ?? .backward,
                              unit: try r.optionalEnum(.unit, TextUnit.self) ?? .character)
        case .pressReturn:
            command = .pressReturn(field: try r.optionalString(.field))
        case .demandFocus:
            command = .demandFocus(field: try r.string(.field), demand: try r.requiredEnum(.demand, Demand.self))
        }
        return .form(try r.optionalString(.form) ?? FormEngine.defaultForm, command)
    }
}

/// A keystroke method's params in a parsed object, read by key.
struct ParsedKeystrokeParams: ParamsSource {
    let reader: ParamsReader

    var path: String { reader.path }
    static func spelling(of key: KeystrokeMethod.Key) -> String { key.name }
    func optionalString(_ key: KeystrokeMethod.Key) throws(ProtocolError) -> String? { try reader.optionalString(key.name) }
}
