import FormdCore

/// The params of one `subscribe` or `unsubscribe`: which form events it is about. A key
/// left out (nil) means any.
public struct SubscriptionRule: Equatable, Sendable {
    public var forms: Set<String>?
    public var fields: Set<String>?
    public var events: Set<String>?

    public init(forms: Set<String>? = nil, fields: Set<String>? = nil, events: Set<String>? = nil) {
        self.forms = forms
        self.fields = fields
        self.events = events
    }

    /// Whether the rule is about `record`. `fields` selects the events about those fields;
    /// an event about the whole form (`formDefined`, `formReset`, `focusChanged`,
    /// `submitted`, `submitFailed`) passes the `fields` of a subscribe (a client watching
    /// some fields still sees its form being redefined) but not those of an unsubscribe
    /// (dropping a field's events never drops the form's).
    func matches(_ record: EventRecord, subscribing: Bool) -> Bool {
        if let forms, !forms.contains(record.form) { return false }
        if let events, !events.contains(EventName(record.event).name) { return false }
        if let fields {
            guard let id = record.event.fieldID else { return subscribing }
            if !fields.contains(id) { return false }
        }
        return true
    }

    var matchesEverything: Bool { forms == nil && fields == nil && events == nil }
}

/// What of the forms' events reach one client.
///
/// Until it says otherwise, a client receives every event of each form it has named in a
/// request (it is *attached* to it). `subscribe` and `unsubscribe` add rules on top; the
/// last rule that matches an event decides (like a firewall or `.gitignore`), and an event
/// no rule matches reaches the client when it is attached to the event's form. A
/// `subscribe` takes over the forms it names (without `forms`: every form): naming them
/// no longer attaches them, so what the client receives of them is exactly what its rules
/// say. `unsubscribe` never changes attachment.
public struct Subscription: Sendable {
    public static let maxRules = 256

    /// Forms attached by naming them.
    private var attached: Set<String> = []
    /// Forms a `subscribe` took over: naming them no longer attaches them.
    private var subscribed: Set<String> = []
    /// A `subscribe` without `forms` took over every form.
    private var subscribedAll = false
    private var rules: [(subscribing: Bool, rule: SubscriptionRule)] = [] {
        didSet { hasRules = !rules.isEmpty }
    }
    /// `rules` is not empty: asked on the hot path without touching the list.
    @usableFromInline private(set) var hasRules = false
    /// The form named last and whether it is attached: most commands name the form of
    /// the one before, so the hot path needs no set lookup (and, inlined, no call).
    @usableFromInline var lastForm: String? = nil
    @usableFromInline var lastFormAttached = false

    public init() {}

    /// How much of one form's events may reach the client.
    public enum Reach: Sendable {
        case everything, nothing
        /// Decided event by event (`admits`).
        case some
    }

    /// The client named `form` in a request.
    @inlinable @inline(__always)
    public mutating func attach(_ form: String) {
        if form != lastForm { attachOther(form) }
    }

    /// `attach` of a form other than the last named.
    @usableFromInline
    mutating func attachOther(_ form: String) {
        lastForm = form
        lastFormAttached = false
        if subscribedAll || subscribed.contains(form) {
            lastFormAttached = attached.contains(form)
            return
        }
        attached.insert(form)
        lastFormAttached = true
    }

    public mutating func subscribe(_ rule: SubscriptionRule) throws(ProtocolError) {
        try add(rule, subscribing: true)
        if let forms = rule.forms {
            subscribed.formUnion(forms)
            attached.subtract(forms)
        } else {
            subscribedAll = true
            attached.removeAll()
        }
        lastForm = nil
    }

    public mutating func unsubscribe(_ rule: SubscriptionRule) throws(ProtocolError) {
        try add(rule, subscribing: false)
    }

    /// Appends a rule. An earlier rule with the same params can never decide again, nor
    /// can any earlier rule once one matches everything, so those are dropped.
    private mutating func add(_ rule: SubscriptionRule, subscribing: Bool) throws(ProtocolError) {
        if rule.matchesEverything {
            rules.removeAll()
        } else {
            rules.removeAll { $0.rule == rule }
        }
        guard rules.count < Subscription.maxRules else {
            throw ProtocolError(.limitExceeded, "limit subscriptions exceeded: a client keeps at most \(Subscription.maxRules) subscribe and unsubscribe rules (unsubscribe {} clears them)")
        }
        rules.append((subscribing, rule))
    }

    @inlinable @inline(__always)
    public func reach(_ form: String) -> Reach {
        if form == lastForm && !hasRules { return lastFormAttached ? .everything : .nothing }
        return reachOther(form)
    }

    /// `reach` of a form other than the last named, or under rules.
    @usableFromInline
    func reachOther(_ form: String) -> Reach {
        if rules.isEmpty { return attached.contains(form) ? .everything : .nothing }
        return .some
    }

    /// Whether `record` reaches the client.
    public func admits(_ record: EventRecord) -> Bool {
        for entry in rules.reversed() where entry.rule.matches(record, subscribing: entry.subscribing) {
            return entry.subscribing
        }
        return attached.contains(record.form)
    }
}
