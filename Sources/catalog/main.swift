import CatalogCLI

#if canImport(Glibc)
    import Glibc
#endif

exit(CatalogCommandLine.main(Array(CommandLine.arguments.dropFirst())))
