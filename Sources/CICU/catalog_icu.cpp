extern "C" int catalog_icu_placeholder(void) { return 0; }
