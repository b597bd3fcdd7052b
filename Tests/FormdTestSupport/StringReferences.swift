#if canImport(Glibc)
import Glibc
#endif

/// The runtime's count of strong references to a string's storage (a string held out of
/// line): how tests see whether code that frees in place released a string once, or not
/// at all.
public func storageReferences(_ s: String) -> Int {
    typealias RetainCount = @convention(c) (UnsafeRawPointer) -> Int
    let count = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_retainCount"), to: RetainCount.self)
    let words = unsafeBitCast(s, to: (UInt64, UInt64).self)
    return count(UnsafeRawPointer(bitPattern: UInt(words.1 & 0x0FFF_FFFF_FFFF_FFFF))!)
}
