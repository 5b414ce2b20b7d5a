/* placeholder: replaced by the ICU wrapper */
#ifndef CATALOG_ICU_H
#define CATALOG_ICU_H
int catalog_icu_placeholder(void);
#endif
