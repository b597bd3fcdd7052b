#if canImport(Glibc)
import Glibc
#endif
@testable import FormdServer
import FormdProtocol
import FormdTestSupport
import XCTest

/// `MessageReader` in `Content-Length` framing, fed through a pipe in chunks cut anywhere
/// (inside a header name, between `\r` and `\n`, inside a body): every message comes out
/// whole and in order, an over-long body as its refusal with its start, the same as when
/// the stream arrives in large pieces.
final class ContentLengthReaderTests: XCTestCase {
    enum Item: Equatable {
        case body([UInt8])
        case tooLong(prefix: [UInt8])
        case unreadableHeader(String)
    }

    /// Writes `chunks` (each at most what a pipe holds) into a pipe one at a time, reading
    /// (with a small block) after each, and returns everything handed out.
    private func read(_ chunks: [[UInt8]], maxLineBytes: Int) -> (Framing?, [Item]) {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        var reader = MessageReader(fd: fds[0], maxLineBytes: maxLineBytes, blockSize: 1024)
        defer { reader.close(); close(fds[0]) }
        var items: [Item] = []
        func take() {
            reader.drain { item in
                switch item {
                case .message(let bytes): items.append(.body(Array(bytes)))
                case .tooLong(let prefix): items.append(.tooLong(prefix: Array(prefix)))
                case .unreadableHeader(let reason): items.append(.unreadableHeader(reason))
                }
                return true
            }
        }
        for chunk in chunks {
            XCTAssertEqual(chunk.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }, chunk.count)
            while InputWait.isReady(fds[0]) {
                XCTAssertEqual(reader.fill(), .data)
                take()
            }
        }
        close(fds[1])
        while reader.fill() == .data { take() }
        take()
        return (reader.framing, items)
    }

    /// A random stream of messages and what reading it must give.
    private func stream(_ rng: inout SplitMix64, count: Int, limit: Int) -> ([UInt8], [Item]) {
        var bytes: [UInt8] = [], expected: [Item] = []
        let pieces = ["{\"id\":1}", "é", "👍🏽", "\r\n", "Content-Length: 3\r\n\r\n", " ", "[]", "\"x\""]
        for _ in 0..<count {
            var body: [UInt8] = []
            let target = rng.next(below: 8) == 0 ? limit + 1 + rng.next(below: 3 * limit) : rng.next(below: limit + 1)
            while body.count < target { body += Array(pieces[rng.next(below: pieces.count)].utf8) }
            body = Array(body.prefix(target))
            let spaces = String(repeating: " ", count: rng.next(below: 3))
            var header: String
            switch rng.next(below: 4) {
            case 0: header = "Content-Length: \(body.count)\r\n"
            case 1: header = "content-length:\(spaces)\(body.count)\(spaces)\r\n"
            case 2: header = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: \(body.count)\r\n"
            default: header = "Content-Length: \(body.count)\r\nX-Other: ignored\r\n"
            }
            bytes += Array((header + "\r\n").utf8) + body
            expected.append(body.count > limit ? .tooLong(prefix: Array(body.prefix(DecodedLine.idPrefixBytes))) : .body(body))
        }
        return (bytes, expected)
    }

    func testMessagesCutAnywhereComeOutWhole() {
        var rng = SplitMix64(seed: 0xC0DE)
        for round in 0..<40 {
            let limit = [16, 700, 3000][round % 3]
            let (bytes, expected) = stream(&rng, count: 60, limit: limit)
            var chunks: [[UInt8]] = [], at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, 1 + rng.next(below: round % 2 == 0 ? 7 : 5000))
                chunks.append(Array(bytes[at..<at + n]))
                at += n
            }
            let (framing, items) = read(chunks, maxLineBytes: limit)
            XCTAssertEqual(framing, .contentLength)
            XCTAssertEqual(items, expected, "round \(round)")
            // In pieces as large as a pipe holds at once.
            let large = stride(from: 0, to: bytes.count, by: 32_768).map { Array(bytes[$0..<min($0 + 32_768, bytes.count)]) }
            XCTAssertEqual(read(large, maxLineBytes: limit).1, expected, "round \(round), in large pieces")
        }
    }

    func testAnUnreadableHeaderIsReportedOnceAndEndsTheStream() {
        let good = Array("Content-Length: 2\r\n\r\n{}".utf8)
        for bad in ["Content-Length: 2\r\nbroken\r\n\r\n{}", "Content-Type: x\r\n\r\n{}", "Content-Length: 1e3\r\n\r\n{}",
                    "Content-Length: 2\r\n" + String(repeating: "X-Pad: p\r\n", count: 200) + "\r\n{}"] {
            let (_, items) = read([good + Array(bad.utf8) + good], maxLineBytes: 100)
            XCTAssertEqual(items.count, 2, bad)
            XCTAssertEqual(items.first, .body(Array("{}".utf8)))
            guard case .unreadableHeader = items.last else { return XCTFail("\(bad): \(items)") }
        }
    }

    func testOnlyAHeaderNameChoosesContentLength() {
        XCTAssertEqual(read([Array("Cont".utf8), Array("ent-Type: x\r\nContent-Length: 0\r\n\r\n".utf8)], maxLineBytes: 10).0, .contentLength)
        XCTAssertEqual(read([Array("Conte".utf8), Array("xt\n".utf8)], maxLineBytes: 10).0, .ndjson)
        XCTAssertEqual(read([Array("Content-Length".utf8)], maxLineBytes: 10).0, .ndjson, "cut short at end of input")
        XCTAssertEqual(read([Array("{\"id\":1}\n".utf8)], maxLineBytes: 10).0, .ndjson)
    }
}
