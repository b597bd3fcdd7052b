import Foundation
import FormdTestSupport
import XCTest

/// `kill -9` at random moments while formd answers a stream of commands: after every
/// restart each answered command is there, the state is that of some prefix of what was
/// sent (never a part of a command, never anything else), for every `--fsync` policy and
/// with compactions happening under the kill.
final class DurabilityCrashTests: XCTestCase {
    static let fieldCount = 24

    /// The part of the state the commands change.
    struct Model: Equatable, CustomStringConvertible {
        var texts: [String: String] = [:]
        var responder: String? = nil
        var description: String { "responder \(responder ?? "none"), texts \(texts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.prefix(24))" })" }
    }

    enum Command {
        case setText(String, String)
        case focus(String)

        func apply(to m: inout Model) {
            switch self {
            case .setText(let f, let t): m.texts[f] = t
            case .focus(let f): m.responder = f
            }
        }

        func line(id: Int) -> String {
            switch self {
            case .setText(let f, let t): return #"{"id":\#(id),"method":"setText","params":{"field":"\#(f)","text":"\#(t)"}}"#
            case .focus(let f): return #"{"id":\#(id),"method":"demandFocus","params":{"field":"\#(f)","demand":"become"}}"#
            }
        }
    }

    /// Runs formd on `dir` with `args`, sends `commands` as fast as it takes them and kills
    /// it with SIGKILL `delay` seconds after it answered a first probe (so the delay is
    /// spent serving, however long recovery took), or, with `duringStartup`, `delay`
    /// seconds after it was started. Returns how many commands were written whole and how
    /// many were answered.
    func crashRun(dir: String, args: [String], commands: [Command], firstID: Int, delay: Double,
                  duringStartup: Bool) throws -> (sent: Int, answered: Int) {
        let process = Process()
        process.executableURL = FormdProcess.binary
        process.arguments = ["--state", dir] + args
        var env = ProcessInfo.processInfo.environment
        env["FORMD_STATE_COMPACT_BYTES"] = "16384"
        process.environment = env
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()

        let group = DispatchGroup()
        let ready = DispatchSemaphore(value: 0)
        let lock = NSLock()
        nonisolated(unsafe) var sent = 0
        nonisolated(unsafe) var output: [UInt8] = []
        let inFD = stdin.fileHandleForWriting.fileDescriptor
        let outFD = stdout.fileHandleForReading.fileDescriptor
        // Raw write(2): a killed reader is EPIPE here (SIGPIPE is ignored), not a trap.
        @Sendable func send(_ line: [UInt8]) -> Bool {
            line.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let n = write(inFD, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return false }
                }
                return true
            }
        }
        let probe = Array(#"{"id":0,"method":"validate"}"#.utf8) + [10]
        let probeAnswer = Array(#""id":0,"#.utf8)
        DispatchQueue.global().async(group: group) {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var signalled = false
            while true {
                let n = chunk.withUnsafeMutableBytes { read(outFD, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                lock.lock()
                output += chunk[..<n]
                let seen = !signalled && output.suffix(n + probeAnswer.count).contains(probeAnswer)
                lock.unlock()
                if seen { signalled = true; ready.signal() }
            }
            if !signalled { ready.signal() }
        }
        let lines = commands.enumerated().map { Array(($0.element.line(id: firstID + $0.offset) + "\n").utf8) }
        if !duringStartup {
            _ = send(probe)
            XCTAssertEqual(ready.wait(timeout: .now() + 20), .success, "formd did not answer its probe")
        }
        DispatchQueue.global().async(group: group) {
            for line in lines {
                if !send(line) { return }
                sent += 1
            }
        }
        usleep(useconds_t(delay * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? stdin.fileHandleForWriting.close()
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        // Only whole lines count: the kill may cut the last write short.
        var answered = firstID - 1
        let text = String(decoding: output, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                XCTFail("not a JSON line: \(line.prefix(200))")
                continue
            }
            if let id = object["id"] as? Int, id != 0 {
                XCTAssertNil(object["error"], "\(line)")
                XCTAssertEqual(id, answered + 1, "answers come in order")
                answered = id
            }
        }
        return (sent, answered - firstID + 1)
    }

    /// Starts formd cleanly on `dir` and reads the model back.
    func restoredModel(dir: String) throws -> Model {
        let out = try FormdProcess.run(["--state", dir], input: #"{"id":0,"method":"getState","params":{"includeSecrets":true}}"# + "\n")
        XCTAssertEqual(out.status, 0, out.stderr)
        guard let message = FormdProcess.messages(out).first, let result = message["result"] as? [String: Any],
              let fields = result["fields"] as? [[String: Any]] else {
            XCTFail("no state: \(out.stdout) \(out.stderr)")
            return Model()
        }
        var m = Model()
        for f in fields {
            let text = f["text"] as? String ?? ""
            if !text.isEmpty { m.texts[f["id"] as! String] = text }
        }
        m.responder = result["firstResponder"] as? String
        return m
    }

    func testKillDashNineAtRandomMomentsLosesNoAnsweredCommandAndHalvesNone() throws {
        signal(SIGPIPE, SIG_IGN)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("formd-crash-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: base) }
        let dir = base.appendingPathComponent("state").path
        let fields = (0..<Self.fieldCount).map { "f\($0)" }
        let define = #"{"id":1,"method":"defineForm","params":{"fields":[\#(fields.map { #"{"id":"\#($0)"}"# }.joined(separator: ","))]}}"#
        let setup = try FormdProcess.run(["--state", dir], input: define + "\n")
        XCTAssertEqual(setup.status, 0, setup.stderr)

        var rng = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &rng)
        var random = SplitMix64(seed: seed)
        var model = Model()
        var nextID = 2
        var totals = (sent: 0, answered: 0, inFlight: 0, rounds: 0)
        let policies = [["--fsync", "batch"], ["--fsync", "never"], ["--fsync", "always"], []]
        let started = Date()
        for round in 0..<30 {
            // Unique texts of varied size: some records span many pages, some are tiny.
            let commands: [Command] = (0..<1500).map { k in
                let field = fields[random.next(below: fields.count)]
                if random.next(below: 8) == 0 { return .focus(field) }
                let padding = String(repeating: "x", count: random.next(below: 4) == 0 ? random.next(below: 6000) : random.next(below: 40))
                return .setText(field, "r\(round)c\(k)-\(padding)")
            }
            // One round in five is killed while it starts (recovering, compacting).
            let duringStartup = random.next(below: 5) == 0
            let delay = Double(random.next(below: duringStartup ? 60 : 25)) / 1000
            let args = policies[round % policies.count]
            let (sent, answered) = try crashRun(dir: dir, args: args, commands: commands, firstID: nextID, delay: delay,
                                                duringStartup: duringStartup)
            XCTAssertLessThanOrEqual(answered, sent)
            let restored = try restoredModel(dir: dir)

            // Every answered command applied; then some further prefix of the sent ones.
            var m = model
            for c in commands[..<answered] { c.apply(to: &m) }
            var match: Int? = m == restored ? answered : nil
            var p = answered
            while match == nil && p < sent {
                commands[p].apply(to: &m)
                p += 1
                if m == restored { match = p }
            }
            guard let applied = match else {
                XCTFail("round \(round) (seed \(seed), \(args), delay \(delay)s\(duringStartup ? " from start" : "")): restored state is no prefix of the \(sent) sent commands with all \(answered) answered ones\nrestored: \(restored)\nanswered: \(model)")
                return
            }
            model = restored
            nextID += commands.count
            totals.sent += sent
            totals.answered += answered
            totals.inFlight += applied - answered
            totals.rounds += 1
        }
        XCTAssertGreaterThan(totals.answered, 0, "no command was answered before a kill: the test proves nothing")
        print("crash test: \(totals.rounds) kills in \(String(format: "%.1f", Date().timeIntervalSince(started)))s, \(totals.sent) commands sent, \(totals.answered) answered, \(totals.inFlight) more restored though unanswered (seed \(seed))")
    }
}

extension DurabilityCrashTests {
    /// The guarantee checked without timing luck: formd is frozen (SIGSTOP) while it is
    /// blocked writing a burst of answers to a full pipe; every answer that reached the
    /// pipe must already have its record in the state files.
    func testEveryAnswerInThePipeIsAlreadyInTheJournal() throws {
        signal(SIGPIPE, SIG_IGN)
        for policy in ["batch", "never", "always"] {
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("formd-order-\(UUID().uuidString)")
            addTeardownBlock { try? FileManager.default.removeItem(at: base) }
            let dir = base.appendingPathComponent("state").path
            let count = 150
            let define = #"{"id":0,"method":"defineForm","params":{"fields":[\#((0..<count).map { #"{"id":"f\#($0)"}"# }.joined(separator: ","))]}}"#
            XCTAssertEqual(try FormdProcess.run(["--state", dir], input: define + "\n").status, 0)

            let process = Process()
            process.executableURL = FormdProcess.binary
            process.arguments = ["--state", dir, "--fsync", policy]
            let stdin = Pipe(), stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            try process.run()
            let padding = String(repeating: "p", count: 1500)
            let input = (0..<count).map { #"{"id":\#($0 + 1),"method":"setText","params":{"field":"f\#($0)","text":"mark\#($0 + 1):\#(padding)"}}"# + "\n" }.joined()
            let inFD = stdin.fileHandleForWriting.fileDescriptor
            DispatchQueue.global().async {
                _ = Array(input.utf8).withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let n = write(inFD, raw.baseAddress! + offset, raw.count - offset)
                        if n <= 0 { return }
                        offset += n
                    }
                }
            }
            // Wait for the output pipe to fill up: formd is then blocked in write(2).
            let outFD = stdout.fileHandleForReading.fileDescriptor
            var pending: Int32 = 0, previous: Int32 = -1
            for _ in 0..<500 {
                usleep(10_000)
                _ = ioctl(outFD, UInt(FIONREAD), &pending)
                if pending >= 60_000 && pending == previous { break }
                previous = pending
            }
            XCTAssertGreaterThanOrEqual(pending, 60_000, "formd did not fill the pipe")
            kill(process.processIdentifier, SIGSTOP)
            _ = ioctl(outFD, UInt(FIONREAD), &pending)
            var buffer = [UInt8](repeating: 0, count: Int(pending))
            let n = buffer.withUnsafeMutableBytes { read(outFD, $0.baseAddress, $0.count) }
            let text = String(decoding: buffer[..<max(n, 0)], as: UTF8.self)
            let answered = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line -> Int? in
                guard line.hasPrefix(#"{"jsonrpc":"2.0","id":"#) else { return nil }
                return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: dir).map {
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0)), as: UTF8.self)
            }.joined()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertGreaterThan(answered.count, 10, policy)
            XCTAssertLessThan(answered.count, count, "\(policy): all answered before the pipe filled; the test proves nothing")
            let missing = answered.filter { !files.contains("mark\($0):") }
            XCTAssertEqual(missing, [], "\(policy): answered but not in the state files")
        }
    }
}

extension ArraySlice where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        var i = startIndex
        while i + needle.count <= endIndex {
            if self[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}

