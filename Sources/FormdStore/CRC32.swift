/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the checksum of zlib, PNG and
/// gzip: `CRC32.checksum("123456789") == 0xCBF43926`.
///
/// Slicing-by-8 over a table built once: about a byte per cycle, so checksumming a
/// journal record costs less than writing it.
public enum CRC32 {
    static let tables: [[UInt32]] = {
        var t = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[0][i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 { t[k][i] = (t[k - 1][i] >> 8) ^ t[0][Int(t[k - 1][i] & 0xFF)] }
        }
        return t
    }()

    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        update(0, bytes)
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    public static func checksum(_ s: String) -> UInt32 {
        var s = s
        return s.withUTF8 { checksum(UnsafeRawBufferPointer($0)) }
    }

    /// Continues `crc` (a previous result, or 0) over `bytes`.
    public static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        var i = 0
        let n = bytes.count
        tables.withUnsafeBufferPointer { t in
            let t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], t4 = t[4], t5 = t[5], t6 = t[6], t7 = t[7]
            while i + 8 <= n {
                let lo = c ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                let hi = UInt32(bytes[i + 4]) | UInt32(bytes[i + 5]) << 8 | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 24
                c = t7[Int(lo & 0xFF)] ^ t6[Int((lo >> 8) & 0xFF)] ^ t5[Int((lo >> 16) & 0xFF)] ^ t4[Int(lo >> 24)]
                    ^ t3[Int(hi & 0xFF)] ^ t2[Int((hi >> 8) & 0xFF)] ^ t1[Int((hi >> 16) & 0xFF)] ^ t0[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t0[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        return ~c
    }
}
