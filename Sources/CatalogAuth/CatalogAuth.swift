// CatalogAuth: see the files of this folder.
