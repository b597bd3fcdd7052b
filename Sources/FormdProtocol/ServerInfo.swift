import FormdCore
import FormdJSON

/// What `initialize` and `--version` report.
public enum ServerInfo {
    public static let name = "formd"
    public static let version = "0.1.0"
    /// The protocol this build speaks; bumped on incompatible changes.
    public static let protocolVersion = "2.0"
    /// The Unicode version of the standard library formd is built with: it decides grapheme
    /// clusters (what a character is), canonical equivalence, letters and numbers.
    public static let unicodeVersion = "17.0"

    /// The `initialize` result, with the choices made for this client.
    public static func writeInitializeResult(positionEncoding: PositionEncoding, textSync: TextSync, framing: Framing,
                                             to w: inout JSONWriter) {
        w.key("protocolVersion", first: true); w.writeString(protocolVersion)
        w.key("positionEncoding"); w.writeString(positionEncoding.rawValue)
        w.key("textSync"); w.writeString(textSync.rawValue)
        w.key("framing"); w.writeString(framing.rawValue)
        w.key("serverInfo")
        w.key("name", first: true); w.writeString(name)
        w.key("version"); w.writeString(version)
        w.key("unicodeVersion"); w.writeString(unicodeVersion)
        w.closeObject()
        w.key("capabilities")
        w.key("methods", first: true); w.writeStrings(MethodRegistry.names)
        w.key("events"); w.writeStrings(EventName.allCases.map(\.name))
        w.key("positionEncodings"); w.writeStrings(PositionEncoding.allCases.map(\.rawValue))
        w.key("textSync"); w.writeStrings(TextSync.allCases.map(\.rawValue))
        w.closeObject()
        w.closeObject()
    }
}
