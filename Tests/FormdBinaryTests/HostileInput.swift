import Foundation

/// The hostile half of `BadInputTests.bad`: input built to break a parser or slip a
/// partial change through. Same shape, same test: each line is sent between the good
/// commands and must be answered with its code, cause no event and change nothing.
///
/// It runs with small limits (`BadInputTests.args`): 2048-byte lines, 64-character
/// texts, 2 fields per form, 1 form; the good commands fit exactly.
enum HostileInput {
    /// A request whose `text` is `bytes`, verbatim (no escaping): for bytes that are not
    /// UTF-8 or not allowed raw in a JSON string.
    static func setText(_ bytes: [UInt8]) -> Data {
        Data(#"{"id":20,"method":"setText","params":{"field":"user","text":""#.utf8) + Data(bytes) + Data(#""}}"#.utf8)
    }

    static func line(_ text: String) -> Data { Data(text.utf8) }

    /// Deterministic noise without newlines (a newline would split it into several lines).
    static func garbage(seed: UInt64, count: Int) -> Data {
        var x = seed
        return Data((0..<count).map { _ in
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let b = UInt8(truncatingIfNeeded: x >> 56)
            return b == 0x0A ? 0xFF : b
        })
    }

    static let long = String(repeating: "w", count: 65)

    static let cases: [(Data, Int, String)] = [
        // Invalid UTF-8, inside strings, in keys and between tokens.
        (setText([0xC0, 0xAF]), -32700, "overlong UTF-8"),
        (setText([0xED, 0xA0, 0x80]), -32700, "UTF-8-encoded surrogate"),
        (setText([0xF4, 0x90, 0x80, 0x80]), -32700, "UTF-8 above U+10FFFF"),
        (setText([0xE2, 0x82]), -32700, "truncated UTF-8 sequence"),
        (setText([0x80]), -32700, "lone continuation byte"),
        (setText([0xF8, 0x88, 0x80, 0x80, 0x80]), -32700, "five-byte UTF-8"),
        (line(#"{"id":21,"method":"setText","params":{"fi"#) + Data([0xFE]) + line(#"ld":"user","text":"a"}}"#), -32700, "invalid UTF-8 in a key"),
        (line(#"{"id":21,"#) + Data([0xFF]) + line(#""method":"validate"}"#), -32700, "invalid UTF-8 between tokens"),
        // NUL bytes, raw.
        (setText([0x61, 0x00, 0x62]), -32700, "NUL inside a string"),
        (Data([0x00]) + line(#"{"id":22,"method":"validate"}"#), -32700, "NUL before the request"),
        (line(#"{"id":22,"#) + Data([0x00]) + line(#""method":"validate"}"#), -32700, "NUL between tokens"),
        (Data([0x00, 0x00, 0x00]), -32700, "only NULs"),
        // Lone surrogate escapes.
        (line(#"{"id":23,"method":"setText","params":{"field":"user","text":"\udc00"}}"#), -32700, "lone low surrogate"),
        (line(#"{"id":23,"method":"setText","params":{"field":"user","text":"a\ud800\u0041"}}"#), -32700, "high surrogate then a letter"),
        (line(#"{"id":23,"method":"setText","params":{"field":"user","text":"\ud800\ud800"}}"#), -32700, "two high surrogates"),
        (line(#"{"id":"\ud800","method":"validate"}"#), -32700, "lone surrogate in the id"),
        (line(#"{"id":23,"method":"setText","params":{"\udfff":"user"}}"#), -32700, "lone surrogate in a key"),
        // Numbers that do not fit where they go.
        (line(#"{"id":24,"method":"select","params":{"field":"user","start":18446744073709551616,"end":0}}"#), -32602, "2^64 as a position"),
        (line(#"{"id":24,"method":"select","params":{"field":"user","start":0,"end":1e400}}"#), -32602, "1e400 as a position"),
        (line(#"{"id":24,"method":"select","params":{"field":"user","start":0,"end":-18446744073709551616}}"#), -32602, "-2^64 as a position"),
        (line(#"{"id":24,"method":"select","params":{"field":"user","start":1e2,"end":0}}"#), -32602, "an exponent as a position"),
        (line(#"{"id":24,"method":"select","params":{"field":"user","start":0.5,"end":0}}"#), -32602, "a fraction as a position"),
        (line(#"{"id":24,"method":"select","params":{"field":"user","start":9223372036854775807,"end":0}}"#), -32602, "Int.max as a position"),
        (line(#"{"id":24,"method":"configureField","params":{"field":"user","maxLength":9223372036854775808}}"#), -32602, "2^63 as a length"),
        // Duplicate keys at every level.
        (line(#"{"id":25,"method":"defineForm","params":{"fields":[{"id":"a","id":"b"}]}}"#), -32602, "duplicate key in a field spec"),
        (line(#"{"id":25,"method":"initialize","params":{"clientInfo":{"name":"a","name":"b"}}}"#), -32602, "duplicate key in clientInfo"),
        (line(#"{"id":25,"method":"defineForm","params":{"fields":[{"id":"a"}],"presets":{"p":{},"p":{}}}}"#), -32602, "duplicate preset"),
        (line(#"{"id":25,"method":"configureField","params":{"field":"user","hints":{"k":1,"k":2}}}"#), -32602, "duplicate key in hints"),
        (line(#"{"id":25,"method":"configureField","params":{"field":"user","hints":{"a":[{"q":1,"q":1}]}}}"#), -32602, "duplicate key deep in hints"),
        // Wrong types.
        (line(#"{"id":26,"method":"defineForm","params":{"fields":{"id":"a"}}}"#), -32602, "fields as an object"),
        (line(#"{"id":26,"method":"defineForm","params":{"fields":["a"]}}"#), -32602, "a field spec as a string"),
        (line(#"{"id":26,"method":"defineForm","params":{"fields":[{"id":7}]}}"#), -32602, "a numeric field id"),
        (line(#"{"id":26,"method":"setEnabled","params":{"field":"user","enabled":"yes"}}"#), -32602, "a string for a bool"),
        (line(#"{"id":26,"method":"configureField","params":{"field":"user","configuration":[1]}}"#), -32602, "a number in a preset list"),
        (line(#"{"id":26,"method":"getState","params":{"form":5}}"#), -32602, "a numeric form name"),
        (line(#"{"id":26,"method":"getState","params":null}"#), -32600, "null params"),
        (line(#"{"id":true,"method":"validate"}"#), -32600, "a boolean id"),
        (line(#"{"id":26,"method":"validate","jsonrpc":2.0}"#), -32600, "a numeric jsonrpc"),
        // Unknown keys and values.
        (line(#"{"id":27,"method":"addField","params":{"field":{"id":"z","colour":"red"}}}"#), -32602, "unknown key in a field spec"),
        (line(#"{"id":27,"method":"initialize","params":{"trace":"on"}}"#), -32602, "unknown initialize key"),
        (line(#"{"id":27,"method":"undo","params":{"field":"user","steps":2}}"#), -32602, "unknown undo key"),
        (line(#"{"id":27,"method":"configureField","params":{"field":"user","configuration":["nope"]}}"#), -32602, "unknown preset"),
        (line(#"{"id":27,"method":"initialize","params":{"positionEncoding":"utf-7"}}"#), -32602, "unknown position encoding"),
        // Over the limits.
        (line(#"{"id":28,"method":"addField","params":{"field":{"id":"third"}}}"#), -32003, "a field too many"),
        (line(#"{"id":28,"method":"defineForm","params":{"fields":[{"id":"a"},{"id":"b"},{"id":"c"}]}}"#), -32003, "a definition with too many fields"),
        (line(#"{"id":28,"method":"defineForm","params":{"form":"second","fields":[]}}"#), -32003, "a form too many"),
        (line(#"{"id":28,"method":"setText","params":{"field":"pin","text":"\#(long)"}}"#), -32003, "a text too long"),
        (line(#"{"id":28,"method":"insertText","params":{"field":"user","text":"\#(long)"}}"#), -32003, "an insert too long"),
        (line(#"{"id":28,"method":"editAction","params":{"field":"user","action":"paste","text":"\#(long)"}}"#), -32003, "a paste too long"),
        (line(#"{"id":28,"method":"configureField","params":{"field":"user","text":"\#(long)","maxLength":null}}"#), -32003, "an initial text too long"),
        (line(#"{"id":28,"method":"setText","params":{"field":"user","text":"\#(String(repeating: "é", count: 900))"}}"#), -32003, "a very long string"),
        (line(#"{"id":28,"method":"setText","params":{"field":"user","text":"\#(String(repeating: "\\u00e9", count: 300))"}}"#), -32003, "a very long string of escapes"),
        (line(#"{"id":28,"method":"setText","params":{"field":"user","text":"\#(String(repeating: "v", count: 5000))"}}"#), -32003, "a string longer than a line"),
        // Not JSON at all.
        (garbage(seed: 1, count: 300), -32700, "binary garbage"),
        (garbage(seed: 2, count: 1500), -32700, "more binary garbage"),
        (Data([0x7B]) + garbage(seed: 3, count: 200), -32700, "an object of garbage"),
        (line(#"{"id":29,"method":"validate"} trailing"#), -32700, "content after the request"),
        (line(#"{"id":29,"method":"validate",}"#), -32700, "a trailing comma"),
        (line("{'id':29}"), -32700, "single quotes"),
        (line(#"{"id":29,"method":"setText","params":{"field":"user","text":"a"#) + Data([0x09]) + line(#"b"}}"#), -32700, "a raw tab in a string"),
    ]
}
