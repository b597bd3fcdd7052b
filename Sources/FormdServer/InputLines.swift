/// The stdio input's message reader, in a box that the serving thread lends to the burst's
/// second thread (`BurstIO`) for the length of a burst. Only one thread uses it at a time:
/// starting and joining the thread hand it over.
final class InputLines: @unchecked Sendable {
    var reader: MessageReader

    init(fd: Int32, maxLineBytes: Int) {
        reader = MessageReader(fd: fd, maxLineBytes: maxLineBytes)
    }

    deinit { reader.close() }
}
