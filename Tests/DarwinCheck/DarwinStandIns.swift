// Stand-ins for the Darwin C declarations whose Swift signatures differ from Glibc's, for
// scripts/check-darwin.py only: never part of a target (no target lists this folder).
//
// The check type-checks the client library's closure on Linux with its Darwin branches
// (`#if canImport(Darwin)`) switched on and this file added to each module. Glibc stays visible
// through Foundation, so a use resolves to a stand-in exactly when it type-checks against
// Darwin's declaration and not against Glibc's: code that fits Darwin's alone resolves here,
// code that fits Glibc's alone (such as a destructor that unwraps its optional argument) fails
// to type-check. So a declaration belongs here when Darwin's differs from Glibc's in a way that
// makes such a difference, or when Darwin has a name Glibc lacks (`st_mtimespec`); one identical
// to Glibc's would make every use ambiguous. Written from the macOS 15 / iOS 18 SDK headers as
// Swift imports them; bodies never run.

import Foundation

/// `<pthread.h>` on Darwin: the destructor takes a non-optional `void *`
/// (`void (*_Nullable)(void *)`); Glibc's is imported with an optional argument.
@discardableResult
public func pthread_key_create(
    _ key: UnsafeMutablePointer<pthread_key_t>,
    _ destructor: (@convention(c) (UnsafeMutableRawPointer) -> Void)?
) -> Int32 {
    fatalError("a stand-in for type-checking only")
}

/// `<sys/socket.h>` on Darwin: socket types are `Int32` macros (Glibc's are `__socket_type` cases).
public let SOCK_STREAM: Int32 = 1
/// `<sys/socket.h>` on Darwin.
public let SOCK_DGRAM: Int32 = 2
/// `<sys/socket.h>` on Darwin: what Glibc's `MSG_NOSIGNAL` does, as a socket option.
public let SO_NOSIGPIPE: Int32 = 0x1022

/// `<sys/stat.h>` on Darwin names the times `st_atimespec`, `st_mtimespec`, `st_ctimespec`.
extension stat {
    /// Darwin's name of the last access.
    public var st_atimespec: timespec { st_atim }
    /// Darwin's name of the last change of the content.
    public var st_mtimespec: timespec { st_mtim }
    /// Darwin's name of the last change of the status.
    public var st_ctimespec: timespec { st_ctim }
}
