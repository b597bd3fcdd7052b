#if canImport(Glibc)
import Glibc
#endif

/// `formd tui`: entry point of the terminal front end.
public enum TerminalForm {
    /// Runs the front end with its own arguments; returns the exit status.
    public static func main(_ args: [String]) -> Int32 {
        let message = Array("formd tui: not built yet\n".utf8)
        _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        return 2
    }
}
