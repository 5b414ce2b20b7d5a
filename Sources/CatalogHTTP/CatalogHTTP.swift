// CatalogHTTP: see the files of this folder.
