#!/usr/bin/env python3
"""Checks, on Linux, that the client library's dependency closure builds on Apple platforms.

CatalogClient is built into iOS, macOS and Linux apps, but only Linux compiles it here. This script
reads the closure from Package.swift (`swift package dump-package`: every target CatalogClient
depends on, directly or not) and checks it in three ways:

1. Package: no `unsafeFlags`, no package from outside, and every C library a closure target links
   (a system-library target's `link`, a `linkedLibrary` setting) one that every Apple SDK ships as
   a public library. ICU is not: Apple's SDKs have no ICU headers, so a closure that reached
   `CICU` would not build in an app.
2. Lint: every Swift file of the closure is read with its `#if` branches followed, and a known
   pitfall on a line that is compiled for a platform where it does not hold is an error. The rules
   are the table `RULES` below (Glibc-only names and imports, stat field names, socket constants,
   `pthread_key_create` destructors, `/proc` paths, URLSession APIs one side lacks, delegates
   that are not NSObjects, APIs iOS does not have, …). A line may carry
   `// darwin-check: allow <reason>` when it is right anyway. Looked at and found the same on both
   sides, so not rules: `DispatchTime`, `ProcessInfo`, `Thread`, `sysconf(_SC_NPROCESSORS_ONLN)`,
   `sched_yield`, `errno` and `strerror` through Foundation, `mkstemp`/`pread`/`pwrite`/`rename`,
   `clock_gettime` with a `CLOCK_…` name passed as it is.
3. Type-check: the closure's Swift targets whose Darwin branches differ from what Linux compiles
   (a file with a platform condition, or a call of a stand-in name) are type-checked again with
   `swiftc -typecheck`, their Darwin branches switched on (`canImport(Darwin)` and `os(macOS)` …
   become the flag `DARWIN_STANDIN`, `canImport(Glibc)` and `os(Linux)` become false) and
   `Tests/DarwinCheck/DarwinStandIns.swift` added: hand-written declarations of the Darwin C
   signatures that differ from Glibc's (see that file for how they take effect). The modules the
   target imports come from the build directory given (`.build/debug`), so run it after
   `swift build`. `canImport(FoundationNetworking)` stays true (URLSession needs it on Linux):
   a branch taken only without FoundationNetworking is checked by the lint alone.

Usage:
    scripts/check-darwin.py [BUILD_DIR]        all three checks (BUILD_DIR: .build/debug)
    scripts/check-darwin.py --lint-only        checks 1 and 2, no build needed
    scripts/check-darwin.py --self-test [BUILD_DIR]
        runs the checks on Tests/DarwinCheck/Samples: each sample names the rules it must break,
        no more and no fewer (`// expect: RULE …`; `typecheck`: it must fail to type-check with
        the Darwin stand-ins; `clean`: no rule, and it type-checks), so a check that stops
        finding the original WorkerLocal bug fails here.

Exit status 0 when everything holds, 1 otherwise. `make test` runs both forms.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAND_INS = os.path.join(ROOT, "Tests", "DarwinCheck", "DarwinStandIns.swift")
SAMPLES = os.path.join(ROOT, "Tests", "DarwinCheck", "Samples")
CLIENT = "CatalogClient"

# Platforms a line can be compiled for. "ios" stands for every Apple platform that is not macOS
# (iOS, tvOS, watchOS, visionOS): their SDKs lack the same macOS-only APIs.
PLATFORMS = ("linux", "macos", "ios")
LINUX = {"linux"}
APPLE = {"macos", "ios"}
NOT_IOS = {"linux", "macos"}
# Right on either side, but not one line for both: the code must be split by platform.
SPLIT = None

# C libraries every Apple SDK ships as public libraries (by pkg-config name and by link name).
APPLE_SDK_LIBRARIES = {"sqlite3": "libsqlite3", "zlib": "libz", "z": "libz", "c++": "libc++"}

# (rule, pattern, platforms where the code is right, why). A match on a line compiled for a
# platform outside the set is an error; for SPLIT, a match on a line compiled for Linux and an
# Apple platform alike. Patterns run on code with comments removed; a pattern
# starting with "STRING:" runs on the line with its string literals kept.
RULES = [
    ("glibc-import", r"\bimport\s+(Glibc|Musl)\b", LINUX,
     "Glibc exists on Linux only: `#if canImport(Glibc) import Glibc #elseif canImport(Darwin) import Darwin #endif`"),
    ("glibc-qualified", r"\b(Glibc|Musl|SwiftGlibc)\.", LINUX,
     "a name qualified with Glibc does not resolve on Darwin: qualify with Foundation or branch"),
    ("foundation-networking", r"\bimport\s+FoundationNetworking\b", LINUX,
     "FoundationNetworking is a Linux module: `#if canImport(FoundationNetworking)`"),
    ("foundation-xml", r"\bimport\s+FoundationXML\b", LINUX,
     "FoundationXML is a Linux module: `#if canImport(FoundationXML)`"),
    ("darwin-import", r"\bimport\s+Darwin\b", APPLE, "Darwin exists on Apple platforms only: `#if canImport(Darwin)`"),
    ("darwin-qualified", r"\bDarwin\.", APPLE, "Darwin exists on Apple platforms only"),
    ("stat-timespec", r"\.st_[amc]tim\b", LINUX,
     "Glibc's stat field names: Darwin spells them st_atimespec, st_mtimespec, st_ctimespec"),
    ("stat-timespec-darwin", r"\.st_[amc]timespec\b", APPLE, "Darwin's stat field names: Glibc has st_mtim"),
    ("socket-type-rawvalue", r"\bSOCK_(STREAM|DGRAM|RAW|SEQPACKET)\.rawValue\b", LINUX,
     "Glibc imports SOCK_STREAM as an enum (`.rawValue`), Darwin as an Int32"),
    ("linux-only-c", r"\b(MSG_NOSIGNAL|SOCK_CLOEXEC|SOCK_NONBLOCK|accept4|epoll_\w+|eventfd|inotify_\w+|O_DIRECT"
     r"|O_TMPFILE|O_NOATIME|O_PATH|mallinfo2?|malloc_trim|malloc_usable_size|gettid|prctl|sched_getaffinity"
     r"|CLOCK_MONOTONIC_COARSE|CLOCK_REALTIME_COARSE|CLOCK_BOOTTIME|get_nprocs|fallocate|posix_fadvise|sendfile"
     r"|pipe2|dup3|splice|__errno_location|SIGRTMIN|SIGRTMAX)\b", LINUX,
     "a Linux-only C name (Darwin: SO_NOSIGPIPE for MSG_NOSIGNAL, fcntl for O_CLOEXEC, malloc_zone_* for mallinfo)"),
    ("darwin-only-c", r"\b(mach_\w+|kqueue|kevent|os_unfair_lock\w*|clonefile|copyfile|F_FULLFSYNC|SO_NOSIGPIPE"
     r"|malloc_zone_\w+)\b", APPLE, "a Darwin-only C name"),
    ("proc-path", r"STRING:\"/(proc|sys)/", LINUX, "/proc and /sys exist on Linux only: branch with `#if os(Linux)`"),
    ("pthread-t-init", r"\bpthread_t\(\)", LINUX,
     "pthread_t is an integer on Glibc and a pointer on Darwin (`pthread_create` takes `pthread_t?` there)"),
    ("pthread-create", r"\bpthread_create\s*\(", SPLIT,
     "pthread_create's thread argument is `pthread_t` on Glibc and `pthread_t?` on Darwin: branch, or use Thread"),
    ("pthread-key-destructor", r"\bpthread_key_create\s*\(\s*&[\w.]+\s*(\)\s*\{|,\s*\{)", SPLIT,
     "the destructor's argument is `UnsafeMutableRawPointer?` on Glibc and `UnsafeMutableRawPointer` on Darwin: "
     "one closure cannot fit both; split it with `#if canImport(Darwin)`"),
    ("clock-id-cast", r"\b(clockid_t|Int32|UInt32)\s*\(\s*CLOCK_", LINUX,
     "clock ids are Int32 on Glibc and a clockid_t enum on Darwin: pass CLOCK_… as it is"),
    ("async-bytes", r"(\.bytes\s*\(\s*(for|from)\s*:|\bAsyncBytes\b)", APPLE,
     "URLSession.bytes(for:) / AsyncBytes are Apple-only (absent in swift-corelibs-foundation): "
     "`#if !canImport(FoundationNetworking)`, or a data task's delegate as EventStreamRequest does"),
    ("websocket", r"\b(URLSessionWebSocketTask|webSocketTask\s*\()", APPLE,
     "URLSessionWebSocketTask needs a libcurl with WebSockets in swift-corelibs-foundation: branch"),
    ("ios-unavailable", r"(\bProcess\s*\(\s*\)|\bNSTask\b|\bNSWorkspace\b|\bhomeDirectoryForCurrentUser\b"
     r"|\bHost\.current\b|(?<![.\w])fork\s*\(\s*\)|(?<![.\w])system\s*\(|(?<![.\w])execv\w*\s*\("
     r"|\bsqlite3_(enable_)?load_extension\b)",
     NOT_IOS, "unavailable on iOS (macOS and Linux only): `#if os(macOS) || os(Linux)`"),
    ("delegate-sendable", r"completionHandler:\s*@escaping\s*\((?!.*@Sendable)", LINUX,
     "Darwin's URLSession delegate requirements take `@escaping @Sendable` completion handlers"),
]

ALLOW = "darwin-check: allow"


def fail(message):
    print(f"check-darwin: {message}", file=sys.stderr)


# MARK: - The closure


def dump_package():
    scratch = tempfile.mkdtemp(prefix="check-darwin-")
    try:
        output = subprocess.run(
            ["swift", "package", "--package-path", ROOT, "--scratch-path", scratch, "dump-package"],
            check=True, capture_output=True, text=True).stdout
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return json.loads(output)


def closure(package, root_target):
    """The targets `root_target` depends on, itself included, as {name: target JSON}."""
    targets = {target["name"]: target for target in package["targets"]}
    products = {product["name"]: product for product in package.get("products", [])}
    found, queue, errors = {}, [root_target], []
    while queue:
        name = queue.pop()
        if name in found:
            continue
        target = targets.get(name)
        if target is None:
            errors.append(f"{name}: not a target of this package (an outside package cannot be checked here)")
            continue
        found[name] = target
        for dependency in target.get("dependencies", []):
            kind, value = next(iter(dependency.items()))
            if kind in ("byName", "target"):
                queue.append(value[0])
            elif kind == "product":
                package_name = value[1]
                if package_name is not None and package_name != package["name"]:
                    errors.append(f"{name}: depends on {value[0]} of package {package_name}, outside the package")
                else:
                    queue += products.get(value[0], {}).get("targets", [])
    return found, errors


def target_directory(target):
    if target.get("path"):
        return os.path.join(ROOT, target["path"])
    base = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(ROOT, base, target["name"])


def swift_files(target):
    directory = target_directory(target)
    excluded = [os.path.join(directory, path) for path in target.get("exclude", [])]
    files = []
    for folder, subfolders, names in os.walk(directory):
        subfolders[:] = sorted(s for s in subfolders if not s.endswith(".docc"))
        for name in sorted(names):
            path = os.path.join(folder, name)
            if name.endswith(".swift") and not any(path.startswith(e) for e in excluded):
                files.append(path)
    return files


def check_package(targets):
    """Check 1: what a closure target links, and its settings."""
    errors = []
    for name, target in sorted(targets.items()):
        if target["type"] == "system":
            library = target.get("pkgConfig") or name
            modulemap = os.path.join(target_directory(target), "module.modulemap")
            links = re.findall(r'\blink\s+"([^"]+)"', open(modulemap).read()) if os.path.exists(modulemap) else []
            for link in links or [library]:
                if link not in APPLE_SDK_LIBRARIES and library not in APPLE_SDK_LIBRARIES:
                    errors.append(f"{name}: links {link}, which Apple's SDKs do not ship")
        for setting in target.get("settings", []):
            kind, value = next(iter(setting["kind"].items()))
            if kind == "unsafeFlags":
                errors.append(f"{name}: unsafeFlags {value} (a package with them cannot be a dependency)")
            if kind == "linkedLibrary":
                library = value["_0"] if isinstance(value, dict) else value
                if library.startswith("icu"):
                    errors.append(
                        f"{name}: links {library}: Apple's SDKs ship no ICU headers or public ICU library, so "
                        "a target in CatalogClient's closure must not use CICU (sort keys come with the data)")
                elif library not in APPLE_SDK_LIBRARIES:
                    errors.append(f"{name}: links {library}, which Apple's SDKs do not ship")
    return errors


# MARK: - Lint


class ConditionParser:
    """Evaluates a `#if` condition for one platform: True, False, or None (does not depend on it)."""

    ATOM = re.compile(r"\s*(!|\(|\)|&&|\|\||[A-Za-z_][A-Za-z_0-9]*\s*\([^()]*\)|[A-Za-z_][A-Za-z_0-9]*)")

    def __init__(self, text, platform):
        self.tokens = []
        position = 0
        while position < len(text.strip()):
            match = self.ATOM.match(text.strip(), position)
            if not match:
                break
            self.tokens.append(match.group(1).replace(" ", ""))
            position = match.end()
        self.platform = platform

    def evaluate(self):
        self.index = 0
        return self.disjunction()

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def disjunction(self):
        values = [self.conjunction()]
        while self.peek() == "||":
            self.index += 1
            values.append(self.conjunction())
        if True in values:
            return True
        return None if None in values else False

    def conjunction(self):
        values = [self.unary()]
        while self.peek() == "&&":
            self.index += 1
            values.append(self.unary())
        if False in values:
            return False
        return None if None in values else True

    def unary(self):
        token = self.peek()
        self.index += 1
        if token == "!":
            value = self.unary()
            return None if value is None else not value
        if token == "(":
            value = self.disjunction()
            if self.peek() == ")":
                self.index += 1
            return value
        return self.atom(token or "")

    def atom(self, token):
        apple = self.platform in APPLE
        table = {
            "canImport(Darwin)": apple, "canImport(Glibc)": self.platform == "linux",
            "canImport(Musl)": False, "canImport(FoundationNetworking)": self.platform == "linux",
            "canImport(FoundationXML)": self.platform == "linux", "canImport(AppKit)": self.platform == "macos",
            "canImport(UIKit)": self.platform == "ios", "canImport(WinSDK)": False,
            "os(Linux)": self.platform == "linux",
            "os(macOS)": self.platform == "macos", "os(iOS)": self.platform == "ios",
            "os(tvOS)": self.platform == "ios", "os(watchOS)": self.platform == "ios",
            "os(visionOS)": self.platform == "ios", "os(Windows)": False, "os(Android)": False,
            "os(WASI)": False, "os(FreeBSD)": False, "os(OpenBSD)": False,
        }
        return table.get(token)


def code_lines(text):
    """Each line twice: without comments and string contents, and without comments only."""
    result = []
    in_block = 0
    in_multiline = False
    for line in text.split("\n"):
        code, kept, index = [], [], 0
        in_string = False
        while index < len(line):
            two, one = line[index:index + 2], line[index]
            if in_block:
                if two == "*/":
                    in_block -= 1
                    index += 2
                    continue
                if two == "/*":
                    in_block += 1
                    index += 2
                    continue
                index += 1
                continue
            if in_multiline:
                if line.startswith('"""', index):
                    in_multiline = False
                    code.append('"""')
                    kept.append('"""')
                    index += 3
                    continue
                kept.append(one)
                index += 1
                continue
            if in_string:
                if one == "\\":
                    kept.append(line[index:index + 2])
                    index += 2
                    continue
                if one == '"':
                    in_string = False
                    code.append('"')
                kept.append(one)
                index += 1
                continue
            if two == "//":
                break
            if two == "/*":
                in_block += 1
                index += 2
                continue
            if line.startswith('"""', index):
                in_multiline = True
                code.append('"""')
                kept.append('"""')
                index += 3
                continue
            if one == '"':
                in_string = True
            code.append(one)
            kept.append(one)
            index += 1
        result.append(("".join(code), "".join(kept)))
    return result


def lint_file(path, display=None):
    """Check 2 on one file: a list of (line number, rule, message)."""
    text = open(path, encoding="utf-8").read()
    raw_lines = text.split("\n")
    findings = []
    # Each frame: the conditions of the branches taken so far and the current branch's.
    frames = []
    pending_delegate = None
    for number, ((code, kept), raw) in enumerate(zip(code_lines(text), raw_lines), start=1):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", code)
        if directive:
            kind, condition = directive.group(1), directive.group(2).strip()
            if kind == "if":
                frames.append({"previous": [], "current": condition})
            elif kind in ("elseif", "else") and frames:
                frame = frames[-1]
                frame["previous"].append(frame["current"])
                frame["current"] = condition if kind == "elseif" else None
            elif kind == "endif" and frames:
                frames.pop()
            continue
        active = set()
        for platform in PLATFORMS:
            compiled = True
            for frame in frames:
                for previous in frame["previous"]:
                    if ConditionParser(previous, platform).evaluate() is True:
                        compiled = False
                if frame["current"] is not None and ConditionParser(frame["current"], platform).evaluate() is False:
                    compiled = False
            if compiled:
                active.add(platform)
        if not active:
            continue
        allowed = ALLOW in raw or (number > 1 and ALLOW in raw_lines[number - 2])
        for rule, pattern, fine, why in RULES:
            subject = kept if pattern.startswith("STRING:") else code
            if not re.search(pattern.removeprefix("STRING:"), subject) or allowed:
                continue
            if fine is SPLIT and "linux" in active and active & APPLE:
                findings.append((number, rule, f"{why} (one line compiled for {', '.join(sorted(active))})"))
            elif fine is not SPLIT and not active <= fine:
                findings.append((number, rule, f"{why} (compiled for {', '.join(sorted(active - fine))})"))
        # A URLSession delegate must be an NSObject on Darwin (its protocols refine NSObjectProtocol).
        declaration = re.match(r"\s*(?:(?:public|package|internal|fileprivate|private|final|open)\s+)*"
                               r"(class|struct|enum|actor)\s+(\w+)[^:{]*:(.*)", code)
        if declaration or pending_delegate:
            header = (pending_delegate[1] + " " + code) if pending_delegate else declaration.group(3)
            start = pending_delegate[0] if pending_delegate else (number, declaration.group(1), declaration.group(2))
            if "{" not in code:
                pending_delegate = (start, header)
            else:
                pending_delegate = None
                inheritance = header.split("{")[0]
                if re.search(r"\bURLSession\w*Delegate\b", inheritance) and not allowed:
                    line, kind, name = start
                    if kind != "class" or not re.search(r"\bNSObject\b", inheritance):
                        findings.append((line, "delegate-nsobject",
                                         f"{name}: a URLSession delegate must be a class inheriting NSObject "
                                         "(Darwin's delegate protocols refine NSObjectProtocol)"))
    return findings


# MARK: - Type-check


STANDIN_FLAG = "DARWIN_STANDIN"
REWRITES = [
    (r"canImport\(\s*Darwin\s*\)", STANDIN_FLAG),
    (r"os\(\s*(macOS|iOS|tvOS|watchOS|visionOS)\s*\)", STANDIN_FLAG),
    (r"canImport\(\s*(Glibc|Musl|WinSDK)\s*\)", "GLIBC_STANDIN"),
    (r"os\(\s*(Linux|Android|Windows|WASI|FreeBSD|OpenBSD)\s*\)", "GLIBC_STANDIN"),
    (r"^(\s*)import\s+Darwin\s*$", r"\1import Foundation"),
]


def stand_in_names():
    """The names the stand-ins declare: a target that uses one is type-checked again."""
    return set(re.findall(r"\b(?:func|let|var)\s+(\w+)", open(STAND_INS).read()))


def rewrite(text):
    for pattern, replacement in REWRITES:
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    return text


def needs_typecheck(files):
    names = stand_in_names()
    for path in files:
        text = open(path, encoding="utf-8").read()
        if rewrite(text) != text or any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            return True
    return False


def swift_flags(target):
    flags = []
    for setting in target.get("settings", []):
        kind, value = next(iter(setting["kind"].items()))
        argument = value["_0"] if isinstance(value, dict) else value
        if kind == "enableUpcomingFeature":
            flags += ["-enable-upcoming-feature", argument]
        elif kind == "enableExperimentalFeature":
            flags += ["-enable-experimental-feature", argument]
        elif kind == "define":
            flags += ["-D", argument]
    return flags


def typecheck(module, files, flags, build_dir, module_maps):
    """Type-checks `files` as `module` with the Darwin branches on; the compiler's errors."""
    work = tempfile.mkdtemp(prefix="check-darwin-")
    try:
        originals = {}
        arguments = []
        for index, path in enumerate(files):
            copy = os.path.join(work, f"{index:04d}-{os.path.basename(path)}")
            with open(copy, "w", encoding="utf-8") as out:
                out.write(rewrite(open(path, encoding="utf-8").read()))
            originals[copy] = path
            arguments.append(copy)
        command = ["swiftc", "-typecheck", "-module-name", module, "-package-name", "catalog", "-parse-as-library",
                   "-swift-version", "6", "-D", STANDIN_FLAG, "-I", os.path.join(build_dir, "Modules"),
                   "-I", build_dir]
        for module_map in module_maps:
            command += ["-Xcc", f"-fmodule-map-file={module_map}", "-Xcc", f"-I{os.path.dirname(module_map)}"]
        command += flags + arguments + [STAND_INS]
        done = subprocess.run(command, capture_output=True, text=True)
        output = done.stderr + done.stdout
        for copy, path in originals.items():
            output = output.replace(copy, os.path.relpath(path, ROOT))
        errors = [line for line in output.split("\n") if re.search(r": error: ", line)]
        if done.returncode != 0 and not errors:
            errors = [output.strip() or f"swiftc exited with {done.returncode}"]
        return errors
    finally:
        shutil.rmtree(work, ignore_errors=True)


# MARK: - Runs


def run(build_dir, lint_only):
    package = dump_package()
    targets, errors = closure(package, CLIENT)
    errors += check_package(targets)
    files = {name: swift_files(target) for name, target in targets.items() if target["type"] != "system"}
    count = 0
    for name in sorted(files):
        for path in files[name]:
            count += 1
            for number, rule, message in lint_file(path):
                errors.append(f"{os.path.relpath(path, ROOT)}:{number}: [{rule}] {message}")
    print(f"check-darwin: closure of {CLIENT}: {', '.join(sorted(targets))}; {count} Swift files linted")
    if not lint_only:
        module_maps = [os.path.join(target_directory(t), "module.modulemap") for t in targets.values()
                       if t["type"] == "system"]
        for name in sorted(files):
            if not files[name] or not needs_typecheck(files[name]):
                continue
            found = typecheck(name, files[name], swift_flags(targets[name]), build_dir, module_maps)
            print(f"check-darwin: {name} type-checked with its Darwin branches: "
                  f"{'ok' if not found else str(len(found)) + ' errors'}")
            errors += found
    for error in errors:
        fail(error)
    return 1 if errors else 0


def self_test(build_dir):
    """Each sample must break exactly the rules it names (`typecheck`: must not type-check with the
    stand-ins), or be clean (no rule, and it type-checks)."""
    problems = []
    samples = sorted(name for name in os.listdir(SAMPLES) if name.endswith(".swift"))
    for name in samples:
        path = os.path.join(SAMPLES, name)
        line = re.search(r"// expect: ([\w -]+)", open(path).read())
        if not line:
            problems.append(f"{name}: no `// expect:` line")
            continue
        expected = set(line.group(1).split())
        found = {rule for _, rule, _ in lint_file(path)}
        if "clean" in expected or "typecheck" in expected:
            errors = typecheck(name.removesuffix(".swift"), [path], [], build_dir, [])
            if errors:
                found.add("typecheck")
            if "clean" in expected and errors:
                problems.append(f"{name}: a clean sample does not type-check: {errors[0]}")
        if found != expected - {"clean"}:
            problems.append(f"{name}: expected {sorted(expected)}, found {sorted(found) or 'nothing'}")
        print(f"check-darwin self-test: {name}: {' '.join(sorted(found)) or 'clean'}")
    # The package check on the closure it must refuse: the ICU wrapper as Package.swift declares it.
    icu = {"name": "CICU", "type": "regular", "path": "Sources/CICU",
           "settings": [{"tool": "linker", "kind": {"linkedLibrary": {"_0": "icuuc"}}}]}
    if not any("ICU" in error for error in check_package({"CICU": icu})):
        problems.append("the package check lets a closure link ICU")
    print("check-darwin self-test: a closure with CICU: refused")
    for problem in problems:
        fail(f"self-test: {problem}")
    return 1 if problems or not samples else 0


def main(arguments):
    lint_only = "--lint-only" in arguments
    testing = "--self-test" in arguments
    positional = [a for a in arguments if not a.startswith("--")]
    build_dir = os.path.abspath(positional[0] if positional else os.path.join(ROOT, ".build", "debug"))
    if not lint_only and not os.path.isdir(os.path.join(build_dir, "Modules")):
        fail(f"{build_dir} has no Modules: run `swift build` first, or pass --lint-only")
        return 1
    return self_test(build_dir) if testing else run(build_dir, lint_only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
