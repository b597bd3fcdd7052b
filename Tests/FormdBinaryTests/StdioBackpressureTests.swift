import Foundation
import XCTest

/// Stdio backpressure is by bytes (`--max-pending-output`): a reader that stops reading
/// stops formd reading input, however large each answer is, and nothing is lost.
final class StdioBackpressureTests: XCTestCase {
    /// A field of 100,000 characters (typed in pieces shorter than a read block, so a fast
    /// writer's reads fill whole blocks and the input is served as a burst), then requests
    /// whose answers each carry the whole text: `delete` (`deletePressed` with
    /// `textBefore`, `textChanged`), `insertText` (`textChanged`), `getState`.
    static func largeAnswers(requests: Int) -> (input: [UInt8], lastID: Int) {
        var input = #"{"jsonrpc":"2.0","id":0,"method":"defineForm","params":{"fields":[{"id":"a"}]}}"# + "\n"
        let piece = String(repeating: "x", count: 25_000)
        for id in 1...4 {
            input += #"{"jsonrpc":"2.0","id":\#(id),"method":"insertText","params":{"field":"a","text":"\#(piece)"}}"# + "\n"
        }
        for id in 5..<5 + requests {
            switch id % 3 {
            case 0: input += #"{"jsonrpc":"2.0","id":\#(id),"method":"delete","params":{"field":"a"}}"# + "\n"
            case 1: input += #"{"jsonrpc":"2.0","id":\#(id),"method":"insertText","params":{"field":"a","text":"y"}}"# + "\n"
            default: input += #"{"jsonrpc":"2.0","id":\#(id),"method":"getState"}"# + "\n"
            }
        }
        return (Array(input.utf8), 4 + requests)
    }

    func testAReaderThatStopsReadingStopsTheInputNotTheMemory() throws {
        // About 200 MB of answers in all, from a file (read in whole blocks, a burst).
        let (input, lastID) = Self.largeAnswers(requests: 1_500)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("formd-backpressure-\(getpid()).jsonl")
        try Data(input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (process, stdout) = try FormdProcess.start(stdinFile: file)
        defer { if process.isRunning { process.terminate() } }
        let peakKiB = { Self.procStatus(process.processIdentifier, "VmHWM") ?? 0 }
        var scanner = OutputScanner()
        var chunks = Self.chunks(of: stdout.fileHandleForReading.fileDescriptor, timeout: 60).makeIterator()
        // The reader takes the first 10 MB, then stops reading for two seconds: formd
        // must stop reading its input and stay small (the binary before went on answering
        // into memory: 200 MB here).
        while scanner.bytes < 10 << 20, let chunk = chunks.next() { try scanner.scan(chunk) }
        Thread.sleep(forTimeInterval: 2)
        let heldPeak = peakKiB()
        XCTAssertLessThan(heldPeak, 40 << 10, "peak RSS while the reader held: \(heldPeak) KiB")
        // Released: every answer arrives, once, in order, whole.
        var peak = heldPeak
        while let chunk = chunks.next() {
            try scanner.scan(chunk)
            peak = max(peak, peakKiB())
        }
        XCTAssertEqual(scanner.ids, Array(0...lastID), "every request answered once, in order")
        XCTAssertEqual(scanner.textChanged, 4 + 2 * (lastID - 4) / 3, "every edit's textChanged arrived")
        XCTAssertGreaterThanOrEqual(scanner.fullTexts, 4 * (lastID - 4) / 3, "each getState, deletePressed and textChanged carries the whole text")
        XCTAssertLessThan(peak, 40 << 10, "peak RSS while the output was read: \(peak) KiB")
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    /// A line of `/proc/PID/status`, in KiB.
    static func procStatus(_ pid: Int32, _ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// What `fd` gives, in the pieces it is read in, until its end (or `timeout`).
    static func chunks(of fd: Int32, timeout: TimeInterval) -> AnySequence<[UInt8]> {
        let deadline = Date().addingTimeInterval(timeout)
        return AnySequence(AnyIterator {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000)) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { return nil }
            return Array(chunk[..<n])
        })
    }
}

/// Reads stdout as a stream (the whole output is far larger than is worth holding): each
/// line's start says what it is, its length whether it carries the whole text, its end
/// that it is whole.
struct OutputScanner {
    private(set) var ids: [Int] = []
    private(set) var textChanged = 0
    private(set) var fullTexts = 0
    private(set) var bytes = 0
    private var head: [UInt8] = []  // the first bytes of the current line
    private var length = 0  // of the current line
    private var last: UInt8 = 0
    private let response = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    private let changed = Array(#"{"jsonrpc":"2.0","method":"textChanged""#.utf8)

    mutating func scan(_ chunk: [UInt8]) throws {
        bytes += chunk.count
        try chunk.withUnsafeBytes { raw in
            var at = 0
            while at < raw.count {
                let nl = memchr(raw.baseAddress! + at, 0x0A, raw.count - at).map { UnsafeRawPointer($0) - raw.baseAddress! }
                let end = nl ?? raw.count
                if head.count < 64 { head += raw[at..<min(end, at + 64 - head.count)] }
                length += end - at
                if end > at { last = raw[end - 1] }
                at = end + 1
                if nl != nil { try endLine() }
            }
        }
    }

    private mutating func endLine() throws {
        XCTAssertEqual(last, UInt8(ascii: "}"), "a whole message on each line")
        if head.starts(with: response) {
            let digits = head[response.count...].prefix { $0 >= 0x30 && $0 <= 0x39 }
            ids.append(try XCTUnwrap(Int(String(decoding: digits, as: UTF8.self))))
        } else if head.starts(with: changed) {
            textChanged += 1
        }
        if length >= 90_000 { fullTexts += 1 }
        head.removeAll(keepingCapacity: true)
        length = 0
    }
}
