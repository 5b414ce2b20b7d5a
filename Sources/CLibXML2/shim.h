#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

#include <stddef.h>
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers, whose types
 * clash with Foundation's private copy of ICU in any Swift module that sees both. Nothing here
 * uses libxml2's ICU converters (only the trailing members of xmlCharEncodingHandler, which Swift
 * never touches, depend on it), so the ICU part of the headers is left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

/// The external entity loader installed for the whole process: it refuses every external
/// entity, external DTD and XInclude target, whatever a document or an option asks for.
static xmlParserInputPtr clibxml2_refuse_entity(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url;
    (void)id;
    (void)context;
    return NULL;
}

/// libxml2's generic error handler is variadic; this one drops the message (errors reach the
/// reader through the structured handler of its SAX callbacks instead).
static void clibxml2_silent(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Initializes libxml2 once for the process and installs the refusing entity loader.
static inline void clibxml2_initialize(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(clibxml2_refuse_entity);
}

/// Silences libxml2's generic (per-thread) error output on the calling thread.
static inline void clibxml2_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, clibxml2_silent);
}

/// `XML_SAX2_MAGIC`, which marks a SAX handler as version 2 (it imports as a signed literal).
static inline unsigned int clibxml2_sax2_magic(void) { return XML_SAX2_MAGIC; }

/// The line of the parser's current input (1-based), 0 when unknown.
static inline int clibxml2_line(xmlParserCtxtPtr ctxt) {
    return (ctxt != NULL && ctxt->input != NULL) ? ctxt->input->line : 0;
}

/// The column of the parser's current input (1-based), 0 when unknown.
static inline int clibxml2_column(xmlParserCtxtPtr ctxt) {
    return (ctxt != NULL && ctxt->input != NULL) ? ctxt->input->col : 0;
}

/// Whether the document parsed so far is well-formed.
static inline int clibxml2_well_formed(xmlParserCtxtPtr ctxt) { return ctxt->wellFormed; }

/// The last error number the parser recorded (an `xmlParserErrors` value), 0 for none.
static inline int clibxml2_error_number(xmlParserCtxtPtr ctxt) { return ctxt->errNo; }

/// The parser's element depth (the number of open elements).
static inline int clibxml2_depth(xmlParserCtxtPtr ctxt) { return ctxt->nameNr; }

#endif
