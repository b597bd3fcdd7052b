#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file with plain Glibc calls (keeps Foundation out of the binary's start).
public enum FileContents {
    /// The bytes, or a readable reason ("No such file or directory").
    public static func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        guard let file = fopen(path, "rb") else { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(file) != 0 { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
                return .success(bytes)
            }
        }
    }

    public struct ReadFailure: Error { public var reason: String }
}
