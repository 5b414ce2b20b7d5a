import CatalogStorage
import Testing

@testable import CatalogServer

/// The cap on audit events per minute, as a value: per address and kind, per kind, and the
/// count of what it left out.
@Suite struct AuditCapTests {
    @Test func eachAddressHasItsOwnLimitPerKindAndMinute() {
        var cap = AuditCap(limits: .init(perAddress: 2, perKind: 100))
        var admitted = (0..<5).map { _ in cap.admit(.signInFailed, address: "192.0.2.7", minute: 10) }
        #expect(admitted == [true, true, false, false, false])
        admitted = [
            cap.admit(.signInFailed, address: "192.0.2.8", minute: 10),  // another address
            cap.admit(.permissionRefused, address: "192.0.2.7", minute: 10),  // another kind
        ]
        #expect(admitted == [true, true])
        let ended = cap.roll(to: 11)
        #expect(ended == [AuditCap.Dropped(kind: .signInFailed, address: "192.0.2.7", count: 3)])
        let again = cap.admit(.signInFailed, address: "192.0.2.7", minute: 11)
        #expect(again, "a new minute")
        let same = cap.roll(to: 11)
        #expect(same.isEmpty, "the same minute ends nothing")
        let quiet = cap.roll(to: 12)
        #expect(quiet.isEmpty, "nothing was left out")
    }

    @Test func aKindHasALimitForEveryAddressTogether() {
        var cap = AuditCap(limits: .init(perAddress: 2, perKind: 3))
        let admitted = (0..<5).map { cap.admit(.signInFailed, address: "198.51.100.\($0)", minute: 0) }
        #expect(admitted == [true, true, true, false, false])
        let fromCommandLine = cap.admit(.signInFailed, address: nil, minute: 0)
        #expect(!fromCommandLine, "the command line's too")
        let otherKind = cap.admit(.roleGranted, address: nil, minute: 0)
        #expect(otherKind)
        let ended = cap.roll(to: 1)
        #expect(ended == [AuditCap.Dropped(kind: .signInFailed, address: nil, count: 3)])
    }
}
