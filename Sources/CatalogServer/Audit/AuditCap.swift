import CatalogStorage

/// How many audit events are stored per minute: at most ``Limits/perAddress`` of one kind from one
/// client address, and at most ``Limits/perKind`` of one kind in all, so that a flood (failed
/// sign-ins from many addresses, refused requests) cannot fill the disk. What it leaves out is
/// counted, and said once the minute is over by an ``AuditEvent/Kind/eventsDropped`` event per
/// kind and address.
///
/// A value without I/O or a clock of its own: the caller says which minute it is.
///
/// ```swift
/// var cap = AuditCap(limits: .init(perAddress: 2, perKind: 100))
/// cap.admit(.signInFailed, address: "192.0.2.7", minute: 0)  // true, true, then false
/// cap.roll(to: 1)  // [Dropped(kind: .signInFailed, address: "192.0.2.7", count: 1)]
/// ```
struct AuditCap: Sendable {
    /// The most events per minute.
    struct Limits: Sendable, Equatable {
        /// Of one kind from one address.
        var perAddress = 30
        /// Of one kind, from every address together (and from the command line).
        var perKind = 600
    }

    /// Events left out in a minute: how many of one kind, from one address (nil: from
    /// several, past the kind's own limit).
    struct Dropped: Sendable, Equatable {
        var kind: AuditEvent.Kind
        var address: String?
        var count: Int
    }

    private struct Key: Hashable {
        var kind: AuditEvent.Kind
        var address: String?
    }

    let limits: Limits
    private var minute: Int64?
    private var perAddress: [Key: Int] = [:]
    private var perKind: [AuditEvent.Kind: Int] = [:]
    private var dropped: [Key: Int] = [:]

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether an event of `kind` from `address` (nil: none) may be stored in `minute` (minutes
    /// since 1970); counts it either way. A new minute first ends the one before (see
    /// ``roll(to:)``, whose drops the caller then misses: call it first to get them).
    mutating func admit(_ kind: AuditEvent.Kind, address: String?, minute now: Int64) -> Bool {
        if minute != now { _ = roll(to: now) }
        let key = Key(kind: kind, address: address)
        let fromAddress = address.map { _ in perAddress[key, default: 0] } ?? 0
        let ofKind = perKind[kind, default: 0]
        guard (address == nil || fromAddress < limits.perAddress) && ofKind < limits.perKind else {
            // Past one address's limit the drop is that address's; past the kind's, everyone's.
            let blamed = address != nil && fromAddress >= limits.perAddress ? key : Key(kind: kind, address: nil)
            dropped[blamed, default: 0] += 1
            return false
        }
        if address != nil { perAddress[key] = fromAddress + 1 }
        perKind[kind] = ofKind + 1
        return true
    }

    /// Starts minute `now` (nothing happens when it is the current one) and returns what the
    /// minute before left out, by kind and then address.
    mutating func roll(to now: Int64) -> [Dropped] {
        guard minute != now else { return [] }
        minute = now
        let ended = dropped.map { Dropped(kind: $0.key.kind, address: $0.key.address, count: $0.value) }
        perAddress = [:]
        perKind = [:]
        dropped = [:]
        return ended.sorted { ($0.kind.rawValue, $0.address ?? "") < ($1.kind.rawValue, $1.address ?? "") }
    }
}
