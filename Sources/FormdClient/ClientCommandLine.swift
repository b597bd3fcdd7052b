#if canImport(Glibc)
import Glibc
#endif
import FormdJSON

/// A mistake on the command line of `formd call` or `formd wait`; the message says what to do.
public struct UsageError: Error {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Walks a command line: options (`--name value`, `--name=value`, `-h`) anywhere, operands
/// in order, and `--` to take everything after it as operands.
struct ArgumentReader {
    enum Item {
        case option(String)
        case operand(String)
    }

    private let args: [String]
    private var i = 0
    private var onlyOperands = false
    /// The value of `--name=value`, until `value(for:)` takes it.
    private var inlineValue: String?

    init(_ args: [String]) { self.args = args }

    mutating func next() -> Item? {
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyOperands || arg == "-" || !arg.hasPrefix("-") { return .operand(arg) }
            if arg == "--" {
                onlyOperands = true
                continue
            }
            if arg.hasPrefix("--"), let equals = arg.firstIndex(of: "=") {
                inlineValue = String(arg[arg.index(after: equals)...])
                return .option(String(arg[..<equals]))
            }
            return .option(arg)
        }
        return nil
    }

    /// The value that goes with `flag`.
    mutating func value(for flag: String) throws(UsageError) -> String {
        if let v = inlineValue {
            inlineValue = nil
            return v
        }
        guard i < args.count else { throw UsageError("missing value for '\(flag)'") }
        i += 1
        return args[i - 1]
    }

    /// The value of an option that may be given once; `previous` is what an earlier one gave.
    mutating func value<T>(for flag: String, once previous: T?) throws(UsageError) -> String {
        guard previous == nil else { throw UsageError("'\(flag)' is given twice; give it once") }
        return try value(for: flag)
    }

    /// Throws if an option that takes no value was written `--flag=value`.
    mutating func noValue(for flag: String) throws(UsageError) {
        if inlineValue != nil { throw UsageError("'\(flag)' takes no value") }
    }
}

enum ClientOptions {
    /// `--socket`, else `$FORMD_SOCKET`.
    static func socket(_ given: String?) throws(UsageError) -> String {
        if let given, !given.isEmpty { return given }
        if let v = getenv("FORMD_SOCKET"), v.pointee != 0 { return String(cString: v) }
        throw UsageError("which daemon? give --socket <path> or set FORMD_SOCKET to the path a 'formd --listen <path>' serves")
    }

    /// A `--timeout` in seconds: a number ≥ 0 (fractions allowed).
    static func seconds(_ text: String, flag: String) throws(UsageError) -> Double {
        guard let v = Double(text), v.isFinite, v >= 0 else {
            throw UsageError("'\(flag)' takes a number of seconds (0 or more, such as 5 or 0.5), got '\(text)'")
        }
        return v
    }

    static func unknown(_ option: String) -> UsageError {
        UsageError("unknown option '\(option)'")
    }
}

/// What the commands write: stdout for the answer, stderr for messages, each written whole.
public enum Console {
    /// Writes all of `bytes` to `fd`; false if it refused them (errno says why).
    @discardableResult
    public static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { b in
            var offset = 0
            while offset < b.count {
                let n = Glibc.write(fd, b.baseAddress! + offset, b.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    /// `value` as compact JSON on stdout, or (`--get`) the value at the pointer; false (a
    /// message on stderr, nothing on stdout) when there is none.
    static func print(_ value: JSONValue, at pointer: ValuePointer?) -> Bool {
        guard let pointer else {
            write(STDOUT_FILENO, DaemonMessage.compactLine(value))
            return true
        }
        switch pointer.lookUp(in: value) {
        case .success(let picked):
            write(STDOUT_FILENO, ValuePointer.output(picked))
            return true
        case .failure(let missing):
            error(missing.message)
            return false
        }
    }

    /// `formd: MESSAGE` on stderr.
    static func error(_ message: String) {
        write(STDERR_FILENO, Array("formd: \(message)\n".utf8))
    }

    /// A usage error: the message, the usage line and where to read more; exit status 2.
    static func usage(_ error: UsageError, usage: String, command: String) -> Int32 {
        Console.error("\(error.message)\nUsage: \(usage)\n  See 'formd \(command) --help' for more information.")
        return 2
    }
}

/// What `formd call` and `formd wait` do first: parse (or print the help), then connect.
enum ClientCommand {
    /// The parsed options and the connection, or the exit status to end with.
    enum Start<Options> {
        case ready(Options, DaemonConnection)
        case exit(Int32)
    }

    /// `parse` returns nil when the command line asks for help.
    static func start<Options>(_ args: [String], command: String, usage: String, help: String,
                               parse: ([String]) throws(UsageError) -> Options?,
                               socket: (Options) -> String) -> Start<Options> {
        let options: Options
        do {
            guard let parsed = try parse(args) else {
                Console.write(STDOUT_FILENO, Array((help + "\n").utf8))
                return .exit(0)
            }
            options = parsed
        } catch {
            return .exit(Console.usage(error, usage: usage, command: command))
        }
        do {
            return .ready(options, try DaemonConnection(socket: socket(options)))
        } catch {
            Console.error(error.message)
            return .exit(2)
        }
    }
}
