// CatalogServer: see the files of this folder.
