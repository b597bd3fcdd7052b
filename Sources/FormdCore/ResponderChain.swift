/// First-responder moves and demands: the rules of ResponsiveTextField's
/// `FirstResponderDemand` and TextFieldResponder's chain, on one form.
extension Form {
    /// A field that focus may move to: enabled and willing to become.
    func canFocus(_ i: Int) -> Bool {
        fields[i].attributes.enabled && fields[i].attributes.canBecomeFirstResponder
    }

    /// The current responder may give up focus (or there is none).
    var responderCanResign: Bool {
        guard let r = responder else { return true }
        return fields[r].attributes.canResignFirstResponder
    }

    /// Moves first responder to `target` (nil: none). Unless `force`d, a responder whose
    /// `canResignFirstResponder` is false keeps focus and this returns false. Emits, in
    /// causal order: the old responder's resign, the new one's become, then `focusChanged`.
    @discardableResult
    mutating func moveFocus(to target: Int?, force: Bool = false) -> Bool {
        let old = responder
        if old == target { return true }
        if !force && !responderCanResign { return false }
        if let o = old {
            responder = nil
            emit(.responderChanged(field: fields[o].id, isFirstResponder: false))
            if !fields[o].touched {
                fields[o].touched = true
                emit(.fieldChanged(field: fields[o].id, changes: FieldChanges(touched: true)))
            }
        }
        if let t = target {
            responder = t
            emit(.responderChanged(field: fields[t].id, isFirstResponder: true))
            if !fields[t].visited {
                fields[t].visited = true
                emit(.fieldChanged(field: fields[t].id, changes: FieldChanges(visited: true)))
            }
            if fields[t].attributes.clearsOnBeginEditing && fields[t].length > 0 {
                applyEdit(t, fields[t].buffer.start, fields[t].buffer.end, "", kind: .other)
            }
        }
        emit(.focusChanged(from: old.map { fields[$0].id }, to: target.map { fields[$0].id }))
        return true
    }

    /// The next focusable field after `i` in order, without wrapping.
    func nextFocusable(after i: Int) -> Int? {
        var j = i + 1
        while j < fields.count {
            if canFocus(j) { return j }
            j += 1
        }
        return nil
    }

    /// The previous focusable field before `i`, without wrapping.
    func previousFocusable(before i: Int) -> Int? {
        var j = i - 1
        while j >= 0 {
            if canFocus(j) { return j }
            j -= 1
        }
        return nil
    }

    /// `focusNext`/`focusPrevious`: the next focusable field in `step` direction from the
    /// responder (or from the edge when there is none), wrapping around.
    func cyclicFocusable(step: Int) -> Int? {
        let n = fields.count
        guard n > 0 else { return nil }
        let start = responder ?? (step > 0 ? n - 1 : 0)
        var j = start
        for _ in 0..<n {
            j = (j + step + n) % n
            if canFocus(j) { return j }
        }
        return nil
    }

    // MARK: Demands

    mutating func demandFocus(_ i: Int, _ demand: Demand) -> DemandOutcome {
        // A become supersedes another field's pending become; a resign supersedes its own.
        if let p = pendingBecome, (demand == .become) != (p == i) {
            clearPending(outcome: .refused)
        }
        switch demand {
        case .become:
            if responder == i { return resolve(i, .fulfilled) }
            if !fields[i].attributes.enabled {
                fields[i].demand = .become
                pendingBecome = i
                emit(.demandChanged(field: fields[i].id, demand: .become, outcome: .pending))
                return .pending
            }
            return resolve(i, tryBecome(i))
        case .resign:
            if responder != i { return resolve(i, .fulfilled) }
            if !fields[i].attributes.canResignFirstResponder { return resolve(i, .refused) }
            moveFocus(to: nil)
            return resolve(i, .fulfilled)
        }
    }

    /// Becomes first responder if the field and the current responder allow it.
    private mutating func tryBecome(_ i: Int) -> DemandOutcome {
        if !fields[i].attributes.canBecomeFirstResponder { return .refused }
        return moveFocus(to: i) ? .fulfilled : .refused
    }

    /// Resets field `i`'s demand to nil and reports how it ended.
    private mutating func resolve(_ i: Int, _ outcome: DemandOutcome) -> DemandOutcome {
        fields[i].demand = nil
        if pendingBecome == i { pendingBecome = nil }
        emit(.demandChanged(field: fields[i].id, demand: nil, outcome: outcome))
        return outcome
    }

    mutating func clearPending(outcome: DemandOutcome) {
        guard let p = pendingBecome else { return }
        _ = resolve(p, outcome)
    }

    /// Called after every change to the form: a pending `become` is fulfilled (or
    /// refused) as soon as its field is enabled again.
    mutating func retryPendingDemand() {
        guard let p = pendingBecome, fields[p].attributes.enabled else { return }
        _ = resolve(p, tryBecome(p))
    }
}
