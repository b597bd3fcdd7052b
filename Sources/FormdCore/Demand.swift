/// A first-responder demand, as in ResponsiveTextField's `FirstResponderDemand`.
///
/// A demand is a request, not an order: it is fulfilled, refused, or (only for `become`
/// on a disabled field) left pending until the field is able. Once resolved it resets to
/// nil, so the same demand can be made again.
public enum Demand: String, Sendable, CaseIterable {
    case become, resign
}

/// How a demand was resolved. `pending` means it is kept in the field's state and retried
/// after every later change to the form.
public enum DemandOutcome: String, CaseIterable, Sendable {
    case fulfilled, refused, pending
}
