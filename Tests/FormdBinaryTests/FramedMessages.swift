import Foundation

/// The LSP base protocol as the tests write and read it: `Content-Length: N\r\n\r\n` + body.
enum FramedMessages {
    /// `body` with its header; `extraHeaders` (each `Name: value`) go after Content-Length.
    static func frame(_ body: Data, extraHeaders: [String] = []) -> Data {
        var header = "Content-Length: \(body.count)\r\n"
        for h in extraHeaders { header += h + "\r\n" }
        return Data((header + "\r\n").utf8) + body
    }

    static func frame(_ body: String, extraHeaders: [String] = []) -> Data {
        frame(Data(body.utf8), extraHeaders: extraHeaders)
    }

    /// The bodies of `data`, which must be whole messages each with exactly the header
    /// formd writes (`Content-Length: N\r\n\r\n`); nil if it is anything else.
    static func split(_ data: Data) -> [Data]? {
        let bytes = [UInt8](data)
        var bodies: [Data] = []
        var at = 0
        while at < bytes.count {
            guard let (body, next) = message(in: bytes, at: at) else { return nil }
            bodies.append(Data(bytes[body]))
            at = next
        }
        return bodies
    }

    /// The first whole message of `data` and what follows it; nil if there is none yet or
    /// the header is not the one formd writes.
    static func first(_ data: Data.SubSequence) -> (Data, Data.SubSequence)? {
        let bytes = [UInt8](data)
        guard let (body, next) = message(in: bytes, at: 0) else { return nil }
        return (Data(bytes[body]), data.dropFirst(next))
    }

    /// The body range and end of the message at `at`.
    private static func message(in bytes: [UInt8], at: Int) -> (Range<Int>, Int)? {
        let prefix = Array("Content-Length: ".utf8)
        guard bytes.count - at > prefix.count, Array(bytes[at..<at + prefix.count]) == prefix else { return nil }
        var i = at + prefix.count, n = 0, digits = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 18 {
            n = n * 10 + Int(bytes[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0, bytes.count - i >= 4, Array(bytes[i..<i + 4]) == [13, 10, 13, 10] else { return nil }
        let start = i + 4
        guard bytes.count - start >= n else { return nil }
        return (start..<start + n, start + n)
    }
}
