import CICU

/// An error raised while opening a ``Collator`` or a ``SectionIndex``.
///
/// Match on ``code``; show ``description`` to users; ``debugDescription`` adds ICU's status name.
public struct CollationError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, for callers to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The locale string is empty or not a well-formed BCP 47 language tag.
        ///
        /// Well-formed tags that name no locale ICU knows are accepted (ICU falls back to root).
        public static let invalidLocale = Code(name: "invalidLocale")
        /// ICU reported a failure, such as missing data or exhausted memory.
        public static let icuFailure = Code(name: "icuFailure")

        /// The code's name, such as `invalidLocale`.
        public let name: String

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence for users, such as `Invalid locale "en US": expected a BCP 47 tag such as "de" or "sv-SE".`
    public let message: String
    /// ICU's name for the status it reported, such as `U_ILLEGAL_ARGUMENT_ERROR`; `nil` when ICU was not asked.
    public let icuStatus: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A sentence for users.
    ///   - icuStatus: ICU's status name, if ICU reported one.
    public init(code: Code, message: String, icuStatus: String? = nil) {
        self.code = code
        self.message = message
        self.icuStatus = icuStatus
    }

    /// The message for users.
    public var description: String { message }

    /// The message with the error code and ICU's status name.
    public var debugDescription: String {
        "CollationError(\(code)): \(message)" + (icuStatus.map { " [\($0)]" } ?? "")
    }
}

extension CollationError {
    /// Checks that `locale` is a well-formed BCP 47 tag.
    static func validate(locale: String) throws(CollationError) {
        var tag = locale
        let wellFormed = tag.withUTF8 { bytes in
            bytes.count <= Int(Int32.max)
                && catalog_icu_locale_is_well_formed(bytes.baseAddress, Int32(bytes.count)) != 0
        }
        guard wellFormed else {
            throw CollationError(
                code: .invalidLocale,
                message: "Invalid locale \"\(locale)\": expected a BCP 47 language tag such as \"de\" or \"sv-SE\"."
            )
        }
    }

    /// The error for a failed ICU call that reported `status`.
    static func icu(_ status: Int32, _ what: String, locale: String) -> CollationError {
        CollationError(
            code: .icuFailure,
            message: "ICU could not build the \(what) for locale \"\(locale)\".",
            icuStatus: String(cString: catalog_icu_status_name(status))
        )
    }
}
