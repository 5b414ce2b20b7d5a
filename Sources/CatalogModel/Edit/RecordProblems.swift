/// Every problem found in a record change: validation goes on past the first bad field, so a
/// client can fix them all at once. Past ``RecordChangeLimits/maxProblems`` the list is cut, and a
/// last problem at `""` says how many more there were.
///
/// ```swift
/// do {
///     let record = try RecordChangeReader.record(body, id: "gulyas", definition: definition)
/// } catch {
///     for problem in error.problems { print(problem.pointer, problem.message) }
/// }
/// ```
public struct RecordProblems: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, in the order of the body.
    public var problems: [RecordProblem]

    /// Creates the error.
    public init(_ problems: [RecordProblem]) {
        self.problems = problems
    }

    /// One problem a line: `/price: price must be a number ≥ 0`.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

/// The problems of one reading, counted past the ones kept.
struct ProblemList {
    private(set) var kept: [RecordProblem] = []
    /// How many problems were found, kept or not.
    private(set) var count = 0

    /// Adds a problem at `pointer`.
    mutating func add(_ pointer: String, _ message: String) {
        count += 1
        if kept.count < RecordChangeLimits.maxProblems {
            kept.append(RecordProblem(pointer: pointer, message: message))
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Adds the problems of `other`, each pointer as `pointer` gives it.
    mutating func append(_ other: ProblemList, pointer: (String) -> String) {
        for problem in other.kept { add(pointer(problem.pointer), problem.message) }
        count += other.count - other.kept.count
    }

    /// Throws the problems found, if any.
    func check() throws(RecordProblems) {
        guard count > 0 else { return }
        var problems = kept
        if count > kept.count {
            let more = count - kept.count
            problems.append(RecordProblem(pointer: "", message: "… and \(more) more problem\(more == 1 ? "" : "s")"))
        }
        throw RecordProblems(problems)
    }
}
