// catalog_icu.cpp: the ICU side of catalog_icu.h, written against ICU's C++ API.

#include "catalog_icu.h"

#include <unicode/alphaindex.h>
#include <unicode/coll.h>
#include <unicode/locid.h>
#include <unicode/uloc.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {

// Text up to this many UTF-8 bytes is converted to UTF-16 on the stack; longer text uses the heap.
// UTF-16 never needs more code units than UTF-8 needs bytes, so the byte count is a safe bound.
constexpr int32_t kStackUnits = 256;

// The UTF-16 form of a UTF-8 string, on the stack when short. Ill-formed bytes become U+FFFD.
class Utf16Text {
  public:
    Utf16Text(const char *utf8, int32_t length) {
        if (utf8 == nullptr || length <= 0) {
            return;
        }
        UChar *destination = stack_;
        if (length > kStackUnits) {
            heap_.resize(static_cast<size_t>(length));
            destination = heap_.data();
        }
        UErrorCode status = U_ZERO_ERROR;
        int32_t converted = 0;
        u_strFromUTF8WithSub(destination, length, &converted, utf8, length, 0xFFFD, nullptr, &status);
        if (U_SUCCESS(status)) {
            data_ = destination;
            length_ = converted;
        }
    }

    Utf16Text(const Utf16Text &) = delete;
    Utf16Text &operator=(const Utf16Text &) = delete;

    const UChar *data() const { return data_; }
    int32_t length() const { return length_; }

    // A read-only UnicodeString aliasing this buffer (no copy); valid while this object lives.
    icu::UnicodeString alias() const { return icu::UnicodeString(false, data_, length_); }

  private:
    UChar stack_[kStackUnits];
    std::vector<UChar> heap_;
    const UChar *data_ = stack_;
    int32_t length_ = 0;
};

bool isTagCharacter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// Parses a BCP 47 tag (underscores allowed as separators) into an ICU locale.
// Fails with U_ILLEGAL_ARGUMENT_ERROR unless the whole tag is well formed.
icu::Locale localeFromTag(const char *tag, int32_t length, UErrorCode &status) {
    if (U_FAILURE(status)) {
        return icu::Locale();
    }
    if (tag == nullptr || length <= 0 || length > 255) {
        status = U_ILLEGAL_ARGUMENT_ERROR;
        return icu::Locale();
    }
    std::string bcp47(tag, static_cast<size_t>(length));
    for (char &c : bcp47) {
        if (!isTagCharacter(c)) {
            status = U_ILLEGAL_ARGUMENT_ERROR;
            return icu::Locale();
        }
        if (c == '_') {
            c = '-';
        }
    }
    char localeID[ULOC_FULLNAME_CAPACITY];
    int32_t parsed = 0;
    int32_t idLength = uloc_forLanguageTag(bcp47.c_str(), localeID, sizeof localeID, &parsed, &status);
    if (U_FAILURE(status)) {
        return icu::Locale();
    }
    // ICU ignores an ill-formed subtag and everything after it; a well-formed tag parses fully.
    if (parsed != static_cast<int32_t>(bcp47.size()) || idLength >= static_cast<int32_t>(sizeof localeID)) {
        status = U_ILLEGAL_ARGUMENT_ERROR;
        return icu::Locale();
    }
    icu::Locale locale(localeID);
    if (locale.isBogus()) {
        status = U_ILLEGAL_ARGUMENT_ERROR;
    }
    return locale;
}

std::string toUTF8(const icu::UnicodeString &text) {
    std::string utf8;
    text.toUTF8String(utf8);
    return utf8;
}

// Builds an immutable index, or returns null and sets `status`.
std::unique_ptr<icu::AlphabeticIndex::ImmutableIndex> buildIndex(icu::AlphabeticIndex &index, UErrorCode &status) {
    std::unique_ptr<icu::AlphabeticIndex::ImmutableIndex> built(index.buildImmutableIndex(status));
    if (U_FAILURE(status)) {
        return nullptr;
    }
    if (!built) {
        status = U_MEMORY_ALLOCATION_ERROR;
    }
    return built;
}

// Whether any normal label of `index` starts with a Latin letter.
bool hasLatinLabel(const icu::AlphabeticIndex::ImmutableIndex &index) {
    for (int32_t i = 0; i < index.getBucketCount(); ++i) {
        const icu::AlphabeticIndex::Bucket *bucket = index.getBucket(i);
        if (bucket == nullptr || bucket->getLabelType() != U_ALPHAINDEX_NORMAL || bucket->getLabel().isEmpty()) {
            continue;
        }
        UErrorCode status = U_ZERO_ERROR;
        if (uscript_getScript(bucket->getLabel().char32At(0), &status) == USCRIPT_LATIN && U_SUCCESS(status)) {
            return true;
        }
    }
    return false;
}

}  // namespace

struct catalog_icu_collator {
    std::unique_ptr<icu::Collator> collator;
};

struct catalog_icu_index {
    std::unique_ptr<icu::AlphabeticIndex::ImmutableIndex> index;
    // UTF-8 labels in index order; the last one is "#".
    std::vector<std::string> labels;
    // For each ICU bucket, its position in `labels`.
    std::vector<int32_t> sectionOfBucket;
    int32_t otherSection = 0;
};

// MARK: - Status and locales

extern "C" const char *catalog_icu_status_name(int32_t status) {
    return u_errorName(static_cast<UErrorCode>(status));
}

extern "C" int catalog_icu_locale_is_well_formed(const char *tag, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    localeFromTag(tag, length, status);
    return U_SUCCESS(status) ? 1 : 0;
}

extern "C" int catalog_icu_locale_is_available(const char *tag, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = localeFromTag(tag, length, status);
    const char *language = locale.getLanguage();
    if (U_FAILURE(status) || language == nullptr || language[0] == '\0') {
        return 0;
    }
    int32_t count = uloc_countAvailable();
    for (int32_t i = 0; i < count; i++) {
        char available[ULOC_LANG_CAPACITY];
        UErrorCode languageStatus = U_ZERO_ERROR;
        uloc_getLanguage(uloc_getAvailable(i), available, sizeof available, &languageStatus);
        if (U_SUCCESS(languageStatus) && std::strcmp(available, language) == 0) {
            return 1;
        }
    }
    return 0;
}

extern "C" int32_t catalog_icu_country_name(
    const char *tag, int32_t length, const char *code, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale display = localeFromTag(tag, length, status);
    if (U_FAILURE(status) || code == nullptr || buffer == nullptr || capacity <= 0) {
        return 0;
    }
    std::string id = std::string("und_") + code;
    UChar name[128];
    int32_t units = uloc_getDisplayCountry(id.c_str(), display.getName(), name, 128, &status);
    if (U_FAILURE(status) || units <= 0 || units >= 128) {
        return 0;
    }
    int32_t written = 0;
    u_strToUTF8(buffer, capacity, &written, name, units, &status);
    if (U_FAILURE(status) || written >= capacity || std::strncmp(buffer, code, static_cast<size_t>(written)) == 0) {
        return 0;
    }
    buffer[written] = '\0';
    return written;
}

// MARK: - Collator

extern "C" catalog_icu_collator *catalog_icu_collator_open(const char *tag, int32_t length, int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    icu::Locale locale = localeFromTag(tag, length, error);
    std::unique_ptr<icu::Collator> collator;
    if (U_SUCCESS(error)) {
        collator.reset(icu::Collator::createInstance(locale, error));
        if (U_SUCCESS(error) && !collator) {
            error = U_MEMORY_ALLOCATION_ERROR;
        }
    }
    catalog_icu_collator *result = nullptr;
    if (U_SUCCESS(error)) {
        result = new (std::nothrow) catalog_icu_collator{std::move(collator)};
        if (result == nullptr) {
            error = U_MEMORY_ALLOCATION_ERROR;
        }
    }
    if (status != nullptr) {
        *status = error;
    }
    return result;
}

extern "C" void catalog_icu_collator_close(catalog_icu_collator *collator) {
    delete collator;
}

extern "C" void catalog_icu_collator_version(const catalog_icu_collator *collator, char *buffer, int32_t capacity) {
    if (buffer == nullptr || capacity <= 0) {
        return;
    }
    UVersionInfo version;
    collator->collator->getVersion(version);
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(version, text);
    std::strncpy(buffer, text, static_cast<size_t>(capacity - 1));
    buffer[capacity - 1] = '\0';
}

extern "C" int32_t catalog_icu_collator_sort_key(
    const catalog_icu_collator *collator,
    const char *text,
    int32_t length,
    uint8_t *key,
    int32_t capacity
) {
    Utf16Text utf16(text, length);
    return collator->collator->getSortKey(utf16.data(), utf16.length(), key, key == nullptr ? 0 : capacity);
}

extern "C" int32_t catalog_icu_collator_compare(
    const catalog_icu_collator *collator,
    const char *a,
    int32_t a_length,
    const char *b,
    int32_t b_length
) {
    UErrorCode status = U_ZERO_ERROR;
    icu::StringPiece first(a == nullptr ? "" : a, a == nullptr ? 0 : a_length);
    icu::StringPiece second(b == nullptr ? "" : b, b == nullptr ? 0 : b_length);
    UCollationResult result = collator->collator->compareUTF8(first, second, status);
    if (U_FAILURE(status)) {
        return 0;
    }
    return result == UCOL_LESS ? -1 : (result == UCOL_GREATER ? 1 : 0);
}

// MARK: - Alphabetic index

extern "C" catalog_icu_index *catalog_icu_index_open(const char *tag, int32_t length, int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    std::unique_ptr<catalog_icu_index> result;
    icu::Locale locale = localeFromTag(tag, length, error);
    if (U_SUCCESS(error)) {
        icu::AlphabeticIndex builder(locale, error);
        std::unique_ptr<icu::AlphabeticIndex::ImmutableIndex> index = buildIndex(builder, error);
        if (U_SUCCESS(error) && !hasLatinLabel(*index)) {
            builder.addLabels(icu::Locale::getEnglish(), error);
            index = buildIndex(builder, error);
        }
        if (U_SUCCESS(error)) {
            result.reset(new (std::nothrow) catalog_icu_index());
            if (!result) {
                error = U_MEMORY_ALLOCATION_ERROR;
            }
        }
        if (U_SUCCESS(error)) {
            const int32_t bucketCount = index->getBucketCount();
            result->sectionOfBucket.assign(static_cast<size_t>(bucketCount), -1);
            for (int32_t i = 0; i < bucketCount; ++i) {
                const icu::AlphabeticIndex::Bucket *bucket = index->getBucket(i);
                if (bucket != nullptr && bucket->getLabelType() == U_ALPHAINDEX_NORMAL) {
                    result->sectionOfBucket[static_cast<size_t>(i)] = static_cast<int32_t>(result->labels.size());
                    result->labels.push_back(toUTF8(bucket->getLabel()));
                }
            }
            // Underflow, inflow and overflow buckets all become one last section.
            result->otherSection = static_cast<int32_t>(result->labels.size());
            result->labels.push_back("#");
            for (int32_t &section : result->sectionOfBucket) {
                if (section < 0) {
                    section = result->otherSection;
                }
            }
            result->index = std::move(index);
        }
    }
    if (status != nullptr) {
        *status = error;
    }
    return U_SUCCESS(error) ? result.release() : nullptr;
}

extern "C" void catalog_icu_index_close(catalog_icu_index *index) {
    delete index;
}

extern "C" int32_t catalog_icu_index_label_count(const catalog_icu_index *index) {
    return static_cast<int32_t>(index->labels.size());
}

extern "C" const char *catalog_icu_index_label(const catalog_icu_index *index, int32_t i, int32_t *length) {
    if (i < 0 || static_cast<size_t>(i) >= index->labels.size()) {
        if (length != nullptr) {
            *length = 0;
        }
        return nullptr;
    }
    const std::string &label = index->labels[static_cast<size_t>(i)];
    if (length != nullptr) {
        *length = static_cast<int32_t>(label.size());
    }
    return label.c_str();
}

extern "C" int32_t catalog_icu_index_section(const catalog_icu_index *index, const char *text, int32_t length) {
    Utf16Text utf16(text, length);
    UErrorCode status = U_ZERO_ERROR;
    int32_t bucket = index->index->getBucketIndex(utf16.alias(), status);
    if (U_FAILURE(status) || bucket < 0 || static_cast<size_t>(bucket) >= index->sectionOfBucket.size()) {
        return index->otherSection;
    }
    return index->sectionOfBucket[static_cast<size_t>(bucket)];
}
