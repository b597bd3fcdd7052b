/// Where the stdio conversation is: serving, or over and why. The server checks this one
/// value before each read and after each line, where each reason used to be a flag.
enum StdioLifecycle: Equatable, Sendable {
    case serving
    case ended(Ending)

    enum Ending: Equatable, Sendable {
        /// The input ended: every line read is answered.
        case endOfInput
        /// Reading the input failed.
        case inputFailed
        /// The client's `shutdown` was answered; later lines are left unapplied.
        case shutdown
        /// SIGTERM or SIGINT.
        case terminationSignal
        /// Stdout's reader went away or writing failed: nothing more can be said.
        case outputGone
        /// The `--state` observer could not commit: nothing more is written (exit 1).
        case journalFailed
        /// A `Content-Length` header block could not be read (exit 1).
        case unreadableHeader
    }
}
