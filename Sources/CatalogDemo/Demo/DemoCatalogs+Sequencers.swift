import CatalogModel

extension DemoCatalogs {
    /// The German music-software overview: the original XML feed format, `<sequenzer>` with
    /// repeated `<Produkt>` records and no id element (ids are derived from the titles).
    static let sequencers = DemoCatalog(
        definition: sequencersDefinition,
        format: .xml,
        source: sequencersXML
    )

    /// One flat list with every other row tinted sage green, as the original app drew it.
    private static var sequencersDefinition: CatalogDefinition {
        var definition = CatalogDefinition(
            id: "sequencers",
            title: "Sequenzer",
            locale: "de",
            rootElement: "sequenzer",
            recordElement: "Produkt",
            mapping: [.title: "TitelText", .description: "Kurzbeschreibung", .categories: "Kategorie"],
            categoryValues: [
                "MAC OS X": ["Apple"],
                "Windows": ["Windows"],
                "MAC OS X Windows": ["Apple", "Windows"],
            ],
            scopes: [
                ScopeDefinition(label: "Alle", categories: []),
                ScopeDefinition(label: "Windows", categories: ["Windows"]),
                ScopeDefinition(label: "Apple", categories: ["Apple"]),
                ScopeDefinition(label: "Apple&Win", categories: ["Apple", "Windows"]),
            ]
        )
        definition.flatList = true
        definition.rowTint = RowTint(red: 180, green: 190, blue: 150)
        definition.description =
            "Programme zum Aufnehmen und Arrangieren von Musik, für macOS, Windows oder beide Systeme."
        definition.fieldLabels = ["categories": ["de": "Kategorie", "en": "Platforms"]]
        return definition
    }

    /// Eleven programs, all invented; three without a description.
    private static let sequencersXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <sequenzer>
          <Produkt>
            <TitelText>Klangwerk Studio</TitelText>
            <Kurzbeschreibung>„Klangwerk Studio“ ist eine vollständige Produktionsumgebung mit Notenansicht, Mischpult und bis zu 128 Spuren.
        Der mitgelieferte „Werkzeugkasten“ bündelt alle Effekte – vom Raumhall bis zum Bandecho.
        Projekte wandern ohne Umwandlung zwischen beiden Plattformen hin und her.</Kurzbeschreibung>
            <Kategorie>MAC OS X Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Taktraum</TitelText>
            <Kurzbeschreibung>Schlanker Pattern-Sequenzer für elektronische Musik.
        Rhythmen entstehen im Raster, Melodien in der Pianorolle – beides lässt sich während der Wiedergabe umschalten.
        Gedacht für alle, die „einfach loslegen“ wollen.</Kurzbeschreibung>
            <Kategorie>Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Ötzi Drums</TitelText>
            <Kurzbeschreibung>Schlagzeug-Sequenzer mit über 40 Sets, von „Holzkiste“ bis „Stahlwerk“.
        Grooves werden mit der Maus eingezeichnet oder über Pads eingespielt; eine sanfte Humanisierung sorgt für lebendiges Timing.</Kurzbeschreibung>
            <Kategorie>MAC OS X</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>8-Spur Werkbank</TitelText>
            <Kurzbeschreibung>Ein Achtspur-Bandgerät als Software: Aufnahme, Ping-Pong und Bandgeschwindigkeit – alles wie damals, nur ohne Bandsalat.
        Läuft auch auf älteren Rechnern flüssig.</Kurzbeschreibung>
            <Kategorie>Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Notenfabrik Pro</TitelText>
            <Kurzbeschreibung>Notensatz &amp; Sequenzer in einem: Partituren klingen schon während der Eingabe.
        Export als Druckvorlage, als MIDI-Datei und als „Stimmenauszug“ für jedes Instrument.</Kurzbeschreibung>
            <Kategorie>MAC OS X</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Loopgarten</TitelText>
            <Kurzbeschreibung>Loops wachsen hier wie Pflanzen im Beet: Jede Reihe ist eine Spur, jedes Feld ein Takt.
        Über 2000 Klangschnipsel sind dabei – von der Gitarre bis zum Glockenspiel.</Kurzbeschreibung>
            <Kategorie>MAC OS X Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Spurwechsel</TitelText>
            <Kurzbeschreibung></Kurzbeschreibung>
            <Kategorie>Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Rhythmuskammer</TitelText>
            <Kurzbeschreibung/>
            <Kategorie>MAC OS X</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Zahnrad Sequenzer</TitelText>
            <Kurzbeschreibung>Modularer Step-Sequenzer: Zahnräder unterschiedlicher Größe treiben Noten an und erzeugen so wechselnde Polyrhythmen.
        Ein eigenwilliges Werkzeug für Klangtüftler – „Zufall mit System“.</Kurzbeschreibung>
            <Kategorie>Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Übersee Tracker</TitelText>
            <Kurzbeschreibung>Tracker im Stil der Neunziger mit hexadezimaler Eingabe und vollständiger Tastatursteuerung.
        Eigene Samples lassen sich direkt aufnehmen, zuschneiden und in Mustern verketten.</Kurzbeschreibung>
            <Kategorie>MAC OS X Windows</Kategorie>
          </Produkt>
          <Produkt>
            <TitelText>Funkelpult</TitelText>
            <Kurzbeschreibung></Kurzbeschreibung>
            <Kategorie>MAC OS X</Kategorie>
          </Produkt>
        </sequenzer>

        """
}
