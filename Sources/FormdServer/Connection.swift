#if canImport(Glibc)
import Glibc
#endif
import FormdJSON
import FormdProtocol

/// One client of `--listen`.
final class Connection {
    enum Phase {
        /// Reading requests and receiving events.
        case open
        /// Its input ended, or the daemon is shutting down: closed once its output is written.
        case finishing
        /// Its output overflowed: closed once the final notification is written.
        case overflowed
    }

    let fd: Int32
    var reader: MessageReader
    var out = JSONWriter(reservingCapacity: 4096)
    /// Bytes of `out` already written.
    var sent = 0
    /// The bytes written so far end inside a line (its rest is at `out[sent...]`).
    var midLine = false
    /// `contentLength`: where a framed message starts, at or before `sent`.
    var messageStart = 0
    var client = ClientState()
    var phase = Phase.open
    /// End of input was read; complete lines may still wait (`stalled`).
    var inputEnded = false
    /// Complete lines wait in the reader until the output drains below `pauseAt`.
    var stalled = false
    var closed = false
    /// When output was last written (or the phase changed): a closing connection that
    /// makes no progress for `closeGrace` is closed anyway.
    var lastProgress: Double
    /// When input last arrived: an unfinished line waits at most `lineTimeout` for more.
    var lastInput: Double
    /// Dropped for a limit on its input: what its reader holds is no longer counted.
    var unfinishedLineDropped = false

    init(fd: Int32, maxLineBytes: Int, now: Double) {
        self.fd = fd
        reader = MessageReader(fd: fd, maxLineBytes: maxLineBytes)
        lastProgress = now
        lastInput = now
    }

    var pending: Int { out.count - sent }

    func wantsInput(pauseAt: Int) -> Bool {
        phase == .open && !stalled && !inputEnded && pending < pauseAt
    }

    func finish(now: Double) {
        phase = .finishing
        stalled = false
        lastProgress = now
    }

    /// Disconnects a client whose waiting output passed `limit` (`--max-client-buffer`):
    /// keeps the rest of the message it is in the middle of, drops everything after it,
    /// and queues the final `error` notification.
    func overflow(limit: Int, now t: Double) {
        var keep = sent
        if client.framing == .contentLength {
            keep = endOfMessageBeingSent()
        } else if midLine {
            while keep < out.count && out[keep] != UInt8(ascii: "\n") { keep += 1 }
            keep = min(keep + 1, out.count)
        }
        out.truncate(to: keep)
        if out.capacity > 1 << 20 {
            // Give back the room the overflowing output took.
            var kept = JSONWriter(reservingCapacity: max(keep, 4096))
            out.withUnsafeBytes { kept.writeRaw($0) }
            out = kept
        }
        let error = ProtocolError(.limitExceeded, "limit maxClientBuffer exceeded: more than \(limit) bytes of output waited for this client, so it is disconnected; reconnect and resync with getState (raise the limit with --max-client-buffer)")
        let start = out.count
        MessageWriter.writeErrorNotification(error, to: &out)
        out.endMessage(from: start, client.framing)
        phase = .overflowed
        stalled = false
        lastProgress = t
    }

    /// Forgets written bytes: all of them when everything went out, else once they are
    /// a large part of the buffer (for `contentLength`, up to the message being sent).
    func compact() {
        if sent == out.count {
            if out.capacity > 1 << 20 {
                out = JSONWriter(reservingCapacity: 4096)
            } else {
                out.removeAll()
            }
            sent = 0
            messageStart = 0
        } else if sent >= 1 << 16 && sent * 2 >= out.count {
            let forgotten = client.framing == .contentLength ? startOfMessageBeingSent() : sent
            out.removeFirst(forgotten)
            sent -= forgotten
            messageStart = 0
        }
    }

    /// `contentLength`: where the message that `sent` falls in starts (`sent` itself at a
    /// message boundary).
    private func startOfMessageBeingSent() -> Int {
        out.withUnsafeBytes { bytes in
            while messageStart < sent {
                let end = ContentLengthHeader.messageEnd(in: bytes, from: messageStart)
                if end > sent { break }
                messageStart = end
            }
        }
        return messageStart
    }

    /// `contentLength`: where the message that `sent` falls in ends (`sent` itself at a
    /// message boundary).
    func endOfMessageBeingSent() -> Int {
        let start = startOfMessageBeingSent()
        if start == sent { return sent }
        return out.withUnsafeBytes { ContentLengthHeader.messageEnd(in: $0, from: start) }
    }
}
