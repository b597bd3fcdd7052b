import Foundation
import XCTest

/// Runs the real `formd` binary, as a user's pipe would.
///
/// The binary is the one `swift test` built next to the test bundle (or `FORMD_BIN`).
enum FormdProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["FORMD_BIN"] { return URL(fileURLWithPath: path) }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // The test bundle may sit inside a .xctest directory.
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("formd")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/formd")
    }

    /// Runs formd with `args` in the package root, feeding `input` on stdin and closing it.
    static func run(_ args: [String] = [], input: String = "", timeout: TimeInterval = 20) throws -> Output {
        try run(args, inputData: Data(input.utf8), timeout: timeout)
    }

    /// Writing to a formd that has already exited (a bad form file, a test that stops it)
    /// must be an EPIPE error for the test, not a SIGPIPE that kills the test runner.
    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func run(_ args: [String], inputData: Data, timeout: TimeInterval = 20) throws -> Output {
        _ = ignoreSIGPIPE
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        process.currentDirectoryURL = packageRoot
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Read both outputs concurrently with writing the input, so no pipe fills up.
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        DispatchQueue.global().async(group: group) { out = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err = stderr.fileHandleForReading.readDataToEndOfFile() }
        try? stdin.fileHandleForWriting.write(contentsOf: inputData)
        try? stdin.fileHandleForWriting.close()
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            XCTFail("formd \(args) did not finish within \(timeout)s")
        }
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    /// Starts formd with the file at `input` as its stdin, so every read takes a whole block
    /// (a burst, as from a shell's `<`), and its stdout on a pipe the caller reads.
    static func start(stdinFile input: URL) throws -> (process: Process, stdout: Pipe) {
        let process = Process()
        process.executableURL = binary
        process.standardInput = try FileHandle(forReadingFrom: input)
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        return (process, stdout)
    }

    /// Parses every stdout line as a JSON object; fails the test on a line that is not one.
    static func messages(_ output: Output, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        output.stdoutLines.compactMap { text in
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
                XCTFail("stdout line is not JSON: \(text)", file: file, line: line)
                return nil
            }
            if let dict = object as? [String: Any] { return dict }
            if let batch = object as? [[String: Any]] { return ["batch": batch] }
            XCTFail("stdout line is not a JSON-RPC message: \(text)", file: file, line: line)
            return nil
        }
    }
}
