/*
 * catalog_icu.h: a small, opaque C interface to ICU collation and alphabetic indexes.
 *
 * This header is deliberately plain C and includes no ICU header: a Swift module that sees ICU's
 * own types next to Foundation's private copy of ICU fails to compile. Every ICU object stays
 * behind an opaque pointer, every string crosses as UTF-8 bytes with an explicit length, and every
 * status is ICU's UErrorCode carried as an int32_t (zero or negative: success or warning).
 *
 * Ownership: each *_open function returns a new object the caller must pass to the matching
 * *_close function exactly once. Strings returned by the library are owned by the object that
 * returned them and live as long as it does.
 *
 * Thread safety: after *_open returns, every function taking a const pointer may be called from
 * any number of threads at once; ICU collators and immutable indexes are safe for concurrent
 * const use.
 */
#ifndef CATALOG_ICU_H
#define CATALOG_ICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MARK: - Status and locales */

/// Returns ICU's name for a status code, such as "U_ZERO_ERROR" or "U_ILLEGAL_ARGUMENT_ERROR".
/// The string is static.
const char *catalog_icu_status_name(int32_t status);

/// Returns nonzero when `tag` (UTF-8, `length` bytes, need not be NUL-terminated) is a
/// well-formed BCP 47 language tag. Underscores are accepted as separators ("de_DE").
/// The tag need not name a locale ICU has data for: ICU falls back to a parent or to root.
int catalog_icu_locale_is_well_formed(const char *tag, int32_t length);

/// Returns nonzero when `tag` is well formed and ICU has locale data for its language (the
/// language of one of ICU's available locales: "de", "hu" and "sv-SE" qualify, "xx" and "tlh" do
/// not). The region and script need not be known: collation and indexes fall back to the language.
int catalog_icu_locale_is_available(const char *tag, int32_t length);

/// Writes the name of the country or region `code` (an ISO 3166-1 alpha-2 code, NUL-terminated)
/// in the language of the BCP 47 tag `tag` (`length` bytes) to `buffer` as UTF-8, NUL-terminated.
/// Returns the name's length in bytes, or 0 when ICU has no name for it (it would only echo the
/// code) or `capacity` is too small.
int32_t catalog_icu_country_name(const char *tag, int32_t length, const char *code, char *buffer, int32_t capacity);

/* MARK: - Collator */

/// An ICU collator for one locale, at ICU's default (tertiary) strength.
typedef struct catalog_icu_collator catalog_icu_collator;

/// Opens a collator for the BCP 47 tag `tag` (`length` bytes). Returns NULL and sets `*status`
/// to a failure code when the tag is malformed or ICU cannot build the collator.
catalog_icu_collator *catalog_icu_collator_open(const char *tag, int32_t length, int32_t *status);

/// Frees a collator returned by catalog_icu_collator_open. NULL is ignored.
void catalog_icu_collator_close(catalog_icu_collator *collator);

/// Writes the collator's version (for example "153.120"; trailing zero parts are left off) to
/// `buffer`, NUL-terminated, truncating to `capacity`. Sort keys may change whenever it changes.
void catalog_icu_collator_version(const catalog_icu_collator *collator, char *buffer, int32_t capacity);

/// Computes the sort key of `text` (UTF-8, `length` bytes; NULL is the empty string).
/// Returns the key's full length in bytes, including ICU's terminating zero byte. When that
/// length exceeds `capacity` the buffer's contents are unspecified: call again with a buffer at
/// least that large. Returns 0 on failure.
int32_t catalog_icu_collator_sort_key(
    const catalog_icu_collator *collator,
    const char *text,
    int32_t length,
    uint8_t *key,
    int32_t capacity
);

/// Compares two UTF-8 strings in the collator's order: returns -1, 0 or 1.
int32_t catalog_icu_collator_compare(
    const catalog_icu_collator *collator,
    const char *a,
    int32_t a_length,
    const char *b,
    int32_t b_length
);

/* MARK: - Alphabetic index */

/// The sections ("A", "B", … "#") of a locale, built from ICU's AlphabeticIndex.
/// Normal labels come first, in index order; ICU's underflow, inflow and overflow buckets all
/// map to one last label, "#".
typedef struct catalog_icu_index catalog_icu_index;

/// Opens the alphabetic index of the BCP 47 tag `tag` (`length` bytes). When the locale's own
/// index letters include no Latin letter (ja, zh-Hant, ru, el, …) the English letters are added
/// so Latin titles still get A–Z. Returns NULL and sets `*status` on failure.
catalog_icu_index *catalog_icu_index_open(const char *tag, int32_t length, int32_t *status);

/// Frees an index returned by catalog_icu_index_open. NULL is ignored.
void catalog_icu_index_close(catalog_icu_index *index);

/// Returns the number of labels, "#" included.
int32_t catalog_icu_index_label_count(const catalog_icu_index *index);

/// Returns label `i` (0 ≤ i < label count) as NUL-terminated UTF-8, owned by the index;
/// `*length` receives its length in bytes when `length` is not NULL.
const char *catalog_icu_index_label(const catalog_icu_index *index, int32_t i, int32_t *length);

/// Returns the label number of the section `text` (UTF-8, `length` bytes) belongs to.
/// Anything outside the normal labels, the empty string included, gets the last label, "#".
int32_t catalog_icu_index_section(const catalog_icu_index *index, const char *text, int32_t length);

#ifdef __cplusplus
}
#endif

#endif /* CATALOG_ICU_H */
