// The terminal app; see CatalogTerminal.swift.
