/// The lines of one read in a burst, decoded on the burst's second thread, and what that
/// thread learned of the input after them.
struct DecodedBlock: Sendable {
    enum After: Sendable {
        /// More of the burst follows in a later block.
        case more
        /// The input had nothing more ready: this is the thread's last block, and the
        /// serving thread reads for itself again.
        case burstOver
        /// The conversation is over (the input ended, a signal, the output gone).
        case ended(StdioLifecycle.Ending)
    }

    var lines: [DecodedLine]
    var after: After
}
