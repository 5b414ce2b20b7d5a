/// The word material the generator's lexicons are built from: our own word lists, written compactly
/// and parsed once when the generator's vocabulary is first used.
///
/// Heads: `category|en|de:gender|hu|sv:gender:definite|fr:gender|es:gender` (one concept per row,
/// the same thing in each language). Modifiers: `category-or-dash|en|de|hu|sv|fr|es`, where a
/// Hungarian modifier starting with `~` is written as a separate word (`kerti lámpa`), otherwise
/// joined (`zseblámpa`).
enum LexiconData {
    /// Category keys, in the order of every catalog's category labels.
    static let categoryKeys = [
        "Tools", "Garden", "Kitchen", "Office", "Lighting", "Furniture",
        "Toys", "Sports", "Audio", "Textiles", "Bathroom", "Outdoor",
    ]

    /// Category labels per language, in the order of ``categoryKeys``.
    static let categoryLabels: [String: [String]] = [
        "en": [
            "Tools", "Garden", "Kitchen", "Office", "Lighting", "Furniture",
            "Toys", "Sports", "Audio", "Textiles", "Bathroom", "Outdoor",
        ],
        "de": [
            "Werkzeug", "Garten", "Küche", "Büro", "Beleuchtung", "Möbel",
            "Spielzeug", "Sport", "Audio", "Textilien", "Bad", "Freizeit",
        ],
        "hu": [
            "Szerszámok", "Kert", "Konyha", "Iroda", "Világítás", "Bútorok",
            "Játékok", "Sport", "Hangtechnika", "Lakástextil", "Fürdőszoba", "Szabadidő",
        ],
        "fr": [
            "Outillage", "Jardin", "Cuisine", "Bureau", "Éclairage", "Mobilier",
            "Jouets", "Sport", "Audio", "Textiles", "Salle de bain", "Plein air",
        ],
        "sv": [
            "Verktyg", "Trädgård", "Kök", "Kontor", "Belysning", "Möbler",
            "Leksaker", "Sport", "Ljud", "Textil", "Badrum", "Friluftsliv",
        ],
        "es": [
            "Herramientas", "Jardín", "Cocina", "Oficina", "Iluminación", "Muebles",
            "Juguetes", "Deportes", "Audio", "Textiles", "Baño", "Aire libre",
        ],
    ]

    /// Things the catalog sells, most common first.
    static let heads = """
        Lighting|Lamp|Lampe:f|lámpa|lampa:c:lampan|lampe:f|lámpara:f
        Kitchen|Bowl|Schale:f|tál|skål:c:skålen|bol:m|cuenco:m
        Kitchen|Cup|Tasse:f|csésze|kopp:c:koppen|tasse:f|taza:f
        Furniture|Shelf|Regal:n|polc|hylla:c:hyllan|étagère:f|estante:m
        Outdoor|Bag|Tasche:f|táska|väska:c:väskan|sac:m|bolsa:f
        Kitchen|Knife|Messer:n|kés|kniv:c:kniven|couteau:m|cuchillo:m
        Textiles|Cushion|Kissen:n|párna|kudde:c:kudden|coussin:m|cojín:m
        Furniture|Chair|Stuhl:m|szék|stol:c:stolen|chaise:f|silla:f
        Office|Clock|Uhr:f|óra|klocka:c:klockan|horloge:f|reloj:m
        Textiles|Blanket|Decke:f|takaró|filt:c:filten|couverture:f|manta:f
        Kitchen|Pan|Pfanne:f|serpenyő|panna:c:pannan|poêle:f|sartén:f
        Furniture|Table|Tisch:m|asztal|bord:n:bordet|table:f|mesa:f
        Lighting|Candle|Kerze:f|gyertya|ljus:n:ljuset|bougie:f|vela:f
        Office|Box|Dose:f|doboz|låda:c:lådan|boîte:f|caja:f
        Kitchen|Jug|Kanne:f|kancsó|kanna:c:kannan|carafe:f|jarra:f
        Tools|Hammer|Hammer:m|kalapács|hammare:c:hammaren|marteau:m|martillo:m
        Bathroom|Towel|Handtuch:n|törölköző|handduk:c:handduken|serviette:f|toalla:f
        Textiles|Rug|Teppich:m|szőnyeg|matta:c:mattan|tapis:m|alfombra:f
        Kitchen|Pot|Topf:m|fazék|gryta:c:grytan|casserole:f|olla:f
        Audio|Speaker|Lautsprecher:m|hangszóró|högtalare:c:högtalaren|enceinte:f|altavoz:m
        Bathroom|Mirror|Spiegel:m|tükör|spegel:c:spegeln|miroir:m|espejo:m
        Kitchen|Spoon|Löffel:m|kanál|sked:c:skeden|cuillère:f|cuchara:f
        Tools|Drill|Bohrer:m|fúró|borr:c:borren|perceuse:f|taladro:m
        Garden|Shears|Schere:f|olló|sax:c:saxen|cisaille:f|tijera:f
        Lighting|Lantern|Laterne:f|lámpás|lykta:c:lyktan|lanterne:f|farol:m
        Office|Pen|Stift:m|toll|penna:c:pennan|stylo:m|bolígrafo:m
        Sports|Ball|Ball:m|labda|boll:c:bollen|ballon:m|balón:m
        Kitchen|Tray|Tablett:n|tálca|bricka:c:brickan|plateau:m|bandeja:f
        Textiles|Curtain|Vorhang:m|függöny|gardin:c:gardinen|rideau:m|cortina:f
        Furniture|Stool|Hocker:m|zsámoly|pall:c:pallen|tabouret:m|taburete:m
        Bathroom|Brush|Bürste:f|kefe|borste:c:borsten|brosse:f|cepillo:m
        Tools|Saw|Säge:f|fűrész|såg:c:sågen|scie:f|sierra:f
        Sports|Bottle|Flasche:f|kulacs|flaska:c:flaskan|gourde:f|cantimplora:f
        Audio|Radio|Radio:n|rádió|radio:c:radion|radio:f|radio:f
        Office|Notebook|Heft:n|füzet|häfte:n:häftet|cahier:m|cuaderno:m
        Garden|Planter|Kübel:m|láda|kruka:c:krukan|jardinière:f|maceta:f
        Tools|Pliers|Zange:f|fogó|tång:c:tången|pince:f|alicate:m
        Outdoor|Tent|Zelt:n|sátor|tält:n:tältet|tente:f|carpa:f
        Toys|Puzzle|Puzzle:n|kirakó|pussel:n:pusslet|puzzle:m|puzle:m
        Garden|Sprinkler|Regner:m|locsoló|spridare:c:spridaren|arroseur:m|aspersor:m
        Sports|Racket|Schläger:m|ütő|racket:c:racketen|raquette:f|raqueta:f
        Toys|Kite|Drachen:m|sárkány|drake:c:draken|cerf-volant:m|cometa:f
        Garden|Rake|Rechen:m|gereblye|kratta:c:krattan|râteau:m|rastrillo:m
        Audio|Turntable|Plattenspieler:m|lemezjátszó|skivspelare:c:skivspelaren|platine:f|tocadiscos:m
        Toys|Doll|Puppe:f|baba|docka:c:dockan|poupée:f|muñeca:f
        """

    /// What a thing is made of or made for, most common first.
    static let modifiers = """
        Garden|Garden|Garten|~kerti|trädgårds|de jardin|de jardín
        Kitchen|Kitchen|Küchen|konyha|köks|de cuisine|de cocina
        -|Wood|Holz|fa|trä|en bois|de madera
        -|Glass|Glas|üveg|glas|en verre|de vidrio
        Outdoor|Travel|Reise|~úti|rese|de voyage|de viaje
        -|Stone|Stein|kő|sten|en pierre|de piedra
        Kitchen|Coffee|Kaffee|kávé|kaffe|à café|de café
        Toys|Kids|Kinder|gyerek|barn|pour enfant|infantil
        -|Leather|Leder|bőr|läder|en cuir|de cuero
        Textiles|Wool|Woll|gyapjú|ylle|en laine|de lana
        -|Iron|Eisen|vas|järn|en fer|de hierro
        -|Night|Nacht|~éjjeli|natt|de nuit|de noche
        Kitchen|Tea|Tee|tea|te|à thé|de té
        Bathroom|Bath|Bade|fürdő|bad|de bain|de baño
        Office|Desk|Schreibtisch|~asztali|skrivbords|de bureau|de escritorio
        -|Pocket|Taschen|zseb|fick|de poche|de bolsillo
        -|Summer|Sommer|~nyári|sommar|d'été|de verano
        -|Winter|Winter|~téli|vinter|d'hiver|de invierno
        Outdoor|Forest|Wald|~erdei|skogs|de forêt|de bosque
        Outdoor|Camping|Camping|kemping|camping|de camping|de camping
        Tools|Workshop|Werkstatt|műhely|verkstads|d'atelier|de taller
        -|Bamboo|Bambus|bambusz|bambu|en bambou|de bambú
        -|Ceramic|Keramik|kerámia|keramik|en céramique|de cerámica
        Textiles|Linen|Leinen|vászon|linne|en lin|de lino
        Audio|Studio|Studio|stúdió|studio|de studio|de estudio
        Garden|Balcony|Balkon|erkély|balkong|de balcon|de balcón
        Sports|Beach|Strand|strand|strand|de plage|de playa
        Textiles|Cotton|Baumwoll|pamut|bomulls|en coton|de algodón
        -|Copper|Kupfer|réz|koppar|en cuivre|de cobre
        Outdoor|Picnic|Picknick|piknik|picknick|de pique-nique|de pícnic
        Sports|Mountain|Berg|~hegyi|fjäll|de montagne|de montaña
        -|Oak|Eichen|tölgyfa|ek|en chêne|de roble
        Textiles|Velvet|Samt|bársony|sammets|en velours|de terciopelo
        -|Marble|Marmor|márvány|marmor|en marbre|de mármol
        """

    /// Adjectives per language, most common first. German: `predicative[:stem]`; Swedish:
    /// `common[:neuter]`; French and Spanish: `masculine[:feminine]`.
    static let adjectives: [String: String] = [
        "en": """
        Red|Blue|Green|White|Black|Yellow|Grey|Large|Small|New|Lightweight|Sturdy|Soft|Quiet|Smart|\
        Practical|Elegant|Classic|Modern|Foldable|Waterproof|Portable|Handy|Digital|Stainless|Compact|\
        Cosy|Round|Slim|Rustic|Durable|Bright|Vintage|Nordic|Heavy-Duty|Striped
        """,
        "de": """
        rot|blau|grün|weiß|schwarz|gelb|grau|groß|klein|neu|leicht|stabil|weich|leise|praktisch|elegant|\
        klassisch|modern|faltbar|wasserdicht|tragbar|handlich|digital|rostfrei|kompakt|gemütlich|rund|\
        schlank|rustikal|edel:edl|nordisch|robust|hell|dunkel:dunkl|bunt|gestreift|flach|hübsch|zeitlos
        """,
        "hu": """
        piros|kék|zöld|fehér|fekete|sárga|szürke|nagy|kicsi|új|könnyű|strapabíró|puha|csendes|okos|\
        praktikus|elegáns|klasszikus|modern|összecsukható|vízálló|hordozható|mutatós|digitális|\
        rozsdamentes|kompakt|kényelmes|kerek|karcsú|rusztikus|tartós|világos|sötét|színes|csíkos|\
        gyönyörű|szögletes|ötletes|nyitható|ügyes
        """,
        "sv": """
        röd:rött|blå:blått|grön:grönt|vit:vitt|svart|gul:gult|grå:grått|stor:stort|liten:litet|ny:nytt|\
        lätt|stabil:stabilt|mjuk:mjukt|tyst|smart|praktisk:praktiskt|elegant|klassisk:klassiskt|\
        modern:modernt|hopfällbar:hopfällbart|vattentät:vattentätt|bärbar:bärbart|händig:händigt|\
        digital:digitalt|rostfri:rostfritt|kompakt|mysig:mysigt|rund:runt|smal:smalt|rustik:rustikt|\
        nordisk:nordiskt|randig:randigt|ljus:ljust|mörk:mörkt|färgglad:färgglatt|kraftig:kraftigt|\
        tålig:tåligt
        """,
        "fr": """
        rouge|bleu:bleue|vert:verte|blanc:blanche|noir:noire|jaune|gris:grise|léger:légère|solide|\
        doux:douce|silencieux:silencieuse|pratique|élégant:élégante|classique|moderne|pliable|étanche|\
        portable|numérique|inoxydable|compact:compacte|rond:ronde|rustique|doré:dorée|argenté:argentée|\
        rayé:rayée|coloré:colorée|robuste|ovale|lumineux:lumineuse|naturel:naturelle|\
        artisanal:artisanale|confortable|épais:épaisse|façonné:façonnée|écologique
        """,
        "es": """
        rojo:roja|azul|verde|blanco:blanca|negro:negra|amarillo:amarilla|gris|grande|pequeño:pequeña|\
        nuevo:nueva|ligero:ligera|resistente|suave|silencioso:silenciosa|práctico:práctica|elegante|\
        clásico:clásica|moderno:moderna|plegable|impermeable|portátil|digital|inoxidable|\
        compacto:compacta|cómodo:cómoda|redondo:redonda|rústico:rústica|dorado:dorada|rayado:rayada|\
        colorido:colorida|robusto:robusta|ovalado:ovalada|artesanal|acolchado:acolchada|\
        térmico:térmica|ecológico:ecológica
        """,
    ]

    /// Sentence frames per language: `{P}` takes a predicative adjective, `{N}` a noun phrase with
    /// its article (German: dative; Swedish: the definite form).
    static let frames: [String: [String]] = [
        "en": [
            "Pairs well with {N} from the same series.",
            "It is {P}, easy to clean and built to last.",
            "Designed for everyday use at home or on the go.",
            "Feels {P} and well made.",
            "Delivered without decoration.",
            "Tested in our own workshop and rated {P} by customers.",
            "Spare parts remain available for ten years.",
            "Size and colour may vary slightly.",
            "A thoughtful gift for the whole family.",
            "Successor to {N} of the previous season.",
        ],
        "de": [
            "Kombinierbar mit {N} aus derselben Serie.",
            "Im Alltag {P} und leicht zu reinigen.",
            "Für den täglichen Gebrauch zu Hause und unterwegs.",
            "Wirkt {P} und hochwertig.",
            "Lieferung ohne Dekoration.",
            "In unserer Werkstatt geprüft und von Kunden als {P} bewertet.",
            "Ersatzteile sind zehn Jahre lang erhältlich.",
            "Größe und Farbe können leicht abweichen.",
            "Ein durchdachtes Geschenk für die ganze Familie.",
            "Ergänzt sich ideal mit {N}.",
        ],
        "hu": [
            "Jól illik hozzá {N} is ugyanebből a sorozatból.",
            "A vásárlók szerint {P} és megbízható.",
            "Mindennapi használatra tervezték, otthonra és útra.",
            "Dekoráció nélkül szállítjuk.",
            "Saját műhelyünkben teszteltük, a vásárlók szerint {P}.",
            "A pótalkatrészek tíz évig elérhetők.",
            "A méret és a szín kissé eltérhet.",
            "Kiváló ajándék az egész családnak.",
            "Könnyen tisztítható, {P} és tartós.",
            "Az előző szezonban {N} volt a legkeresettebb darabunk.",
        ],
        "sv": [
            "Passar bra ihop med {N} ur samma serie.",
            "Materialet är {P} och lätt att rengöra.",
            "Gjord för vardagsbruk hemma och på resan.",
            "Det känns {P} och gediget.",
            "Levereras utan dekoration.",
            "Reservdelar finns att köpa i tio år.",
            "Storlek och färg kan avvika något.",
            "En genomtänkt present till hela familjen.",
            "Ersätter {N} från förra säsongen.",
        ],
        "fr": [
            "S'accorde bien avec {N} de la même série.",
            "Le matériau est {P} et facile à entretenir.",
            "Conçu pour un usage quotidien, à la maison comme en voyage.",
            "Livré sans décoration.",
            "Testé dans notre atelier et jugé {P} par nos clients.",
            "Les pièces de rechange restent disponibles pendant dix ans.",
            "La taille et la couleur peuvent légèrement varier.",
            "Un cadeau réfléchi pour toute la famille.",
            "Remplace {N} de la saison précédente.",
        ],
        "es": [
            "Combina bien con {N} de la misma serie.",
            "El material es {P} y fácil de limpiar.",
            "Diseñado para el uso diario, en casa o de viaje.",
            "Se entrega sin decoración.",
            "Probado en nuestro taller y valorado como {P} por los clientes.",
            "Las piezas de repuesto están disponibles durante diez años.",
            "El tamaño y el color pueden variar ligeramente.",
            "Un regalo pensado para toda la familia.",
        ],
    ]

    /// Manufacturer name parts per language: first parts, second parts, legal forms.
    static let manufacturerParts: [String: (first: [String], second: [String], legal: [String])] = [
        "en": (
            [
                "Alder", "Bram", "Cinder", "Dunn", "Elder", "Fenn", "Gorse", "Heath", "Kestrel", "Lark", "Moss",
                "Pike", "Quill", "Rook", "Thistle",
            ],
            ["combe", "ford", "wick", "mere", "holt", "by", "stead"],
            ["Ltd", "Works", "& Co.", "Supply"]
        ),
        "de": (
            [
                "Alten", "Bären", "Eich", "Falken", "Grün", "Hasel", "Kirch", "Linden", "Mühl", "Rosen", "Schön",
                "Sonnen", "Tann", "Weiß", "Wiesen",
            ],
            ["berg", "feld", "hof", "stein", "thal", "bach", "au"],
            ["GmbH", "AG", "KG", "Werke"]
        ),
        "hu": (
            [
                "Bükk", "Cser", "Duna", "Gyöngy", "Kő", "Mecsek", "Nyír", "Rét", "Szeg", "Tisza", "Tölgy", "Zsom",
                "Zala", "Ér", "Öreg",
            ],
            ["völgyi", "hegyi", "réti", "kúti", "falvi", "szegi", "parti"],
            ["Kft.", "Zrt.", "Bt."]
        ),
        "sv": (
            [
                "Björk", "Ek", "Fjäll", "Gran", "Hav", "Lind", "Mål", "Norr", "Sjö", "Sol", "Sten", "Ström", "Väst",
                "Å", "Öst",
            ],
            ["vik", "berg", "dal", "holm", "lund", "näs", "by"],
            ["AB", "Handel AB"]
        ),
        "fr": (
            [
                "Belle", "Bois", "Champ", "Clair", "Font", "Grand", "Haut", "Mont", "Pré", "Roche", "Val", "Ville",
                "Beau", "Chêne", "Lac",
            ],
            ["ville", "mont", "court", "val", "fort", "lieu", "mare"],
            ["SARL", "S.A.", "& Fils"]
        ),
        "es": (
            [
                "Alta", "Buena", "Campo", "Costa", "Fuente", "Lago", "Mira", "Monte", "Peña", "Río", "Sierra",
                "Solar", "Torre", "Valle", "Villa",
            ],
            ["verde", "blanca", "real", "dorada", "alta", "mar", "sol"],
            ["S.L.", "S.A.", "e Hijos"]
        ),
    ]

    /// Countries of origin per language, with weights, and each country's currency.
    static let countries: [String: [(code: String, weight: Int)]] = [
        "en": [("US", 5), ("GB", 3), ("CA", 2)],
        "de": [("DE", 6), ("AT", 2), ("CH", 2)],
        "hu": [("HU", 1)],
        "sv": [("SE", 5), ("NO", 1), ("FI", 1)],
        "fr": [("FR", 6), ("BE", 1), ("CH", 1), ("CA", 1)],
        "es": [("ES", 5), ("MX", 1), ("AR", 1)],
    ]

    /// Countries that make things for everyone, with weights.
    static let workshopCountries: [(code: String, weight: Int)] = [
        ("CN", 12), ("DE", 4), ("IT", 4), ("JP", 3), ("PL", 3), ("PT", 2), ("CZ", 2), ("TW", 2), ("VN", 2),
        ("US", 2), ("DK", 1), ("NL", 1), ("IN", 2), ("TR", 2),
    ]

    /// The currency of a country of the language's own market.
    static let currencies: [String: String] = [
        "US": "USD", "GB": "GBP", "CA": "CAD", "DE": "EUR", "AT": "EUR", "CH": "CHF", "HU": "HUF", "SE": "SEK",
        "NO": "NOK", "FI": "EUR", "FR": "EUR", "BE": "EUR", "ES": "EUR", "MX": "MXN", "AR": "ARS",
    ]

    /// The currency a language's records use when made elsewhere.
    static let homeCurrency: [String: String] = [
        "en": "USD", "de": "EUR", "hu": "HUF", "sv": "SEK", "fr": "EUR", "es": "EUR",
    ]

    /// Titles in other scripts (Greek, Cyrillic, Japanese katakana), each with its category key.
    static let otherScriptTitles: [(title: String, category: String)] = [
        ("Κόκκινη λάμπα", "Lighting"), ("Ξύλινο τραπέζι", "Furniture"), ("Μεγάλη κούπα", "Kitchen"),
        ("Μικρό μαχαίρι", "Kitchen"), ("Μαλακό μαξιλάρι", "Textiles"), ("Γυάλινο βάζο", "Kitchen"),
        ("Πράσινη τσάντα", "Outdoor"), ("Νέα καρέκλα", "Furniture"),
        ("Красная лампа", "Lighting"), ("Деревянный стол", "Furniture"), ("Большая чашка", "Kitchen"),
        ("Маленький нож", "Kitchen"), ("Мягкая подушка", "Textiles"), ("Стеклянная ваза", "Kitchen"),
        ("Зелёная сумка", "Outdoor"), ("Новый стул", "Furniture"),
        ("ランプ", "Lighting"), ("テーブル", "Furniture"), ("カップ", "Kitchen"), ("ナイフ", "Kitchen"),
        ("クッション", "Textiles"), ("ラジオ", "Audio"), ("スピーカー", "Audio"), ("バッグ", "Outdoor"),
    ]

    /// Tokens that put a title under `#`.
    static let digitPrefixes = ["2-in-1", "3D", "4K", "12V", "18V", "24", "100", "360°", "5x", "2x", "1000", "8"]
}
