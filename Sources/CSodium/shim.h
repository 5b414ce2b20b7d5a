#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H

#include <sodium.h>

/// The argon2id cost parameters are macros over function calls; name them for Swift.
static inline unsigned long long csodium_pwhash_opslimit_interactive(void) { return crypto_pwhash_OPSLIMIT_INTERACTIVE; }
static inline size_t csodium_pwhash_memlimit_interactive(void) { return crypto_pwhash_MEMLIMIT_INTERACTIVE; }
static inline size_t csodium_pwhash_strbytes(void) { return crypto_pwhash_STRBYTES; }

#endif
