import CatalogAuth
import CatalogCore
import CatalogDemo
import CatalogHTTP
import CatalogModel
import CatalogStorage
import Foundation
import Testing

@testable import CatalogServer

/// The web app at any depth and in the catalog's language, rendered in process: message tables,
/// plurals and numbers, lists by position and their links, the original apps' look, structured
/// data, the sitemap, the installable app's files, localized errors.
@Suite struct WebAppTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    // MARK: - Words

    @Test(arguments: WebStrings.supported)
    func everyTableHasEveryMessage(language: String) throws {
        let table = WebStrings.table(language)
        let keys = Set(WebStrings.Key.allCases.map(\.rawValue))
        let roles = Set(Role.allCases.map { "role." + $0.rawValue })
        #expect(Set(table.keys) == keys.union(roles), "\(language)")
        for (key, entry) in table {
            switch entry {
            case .plural(let forms):
                #expect(forms["other"] != nil, "\(language) \(key)")
                #expect(Set(forms.keys).isSubset(of: ["one", "many", "other"]), "\(language) \(key)")
                for form in forms.values { #expect(form.contains("{count}"), "\(language) \(key)") }
            case .text(let text):
                #expect(!text.isEmpty, "\(language) \(key)")
            }
        }
        let strings = WebStrings.forLocale(language)
        #expect(strings[.tooManySignIns].contains("{wait}") && strings[.tooManySignIns].contains("{time}"))
    }

    @Test(
        arguments: [
            ("en", 0, "other"), ("en", 1, "one"), ("en", 2, "other"), ("de", 1, "one"), ("de", 21, "other"),
            ("hu", 1, "one"), ("hu", 5, "other"), ("sv", 1, "one"), ("fr", 0, "one"), ("fr", 1, "one"),
            ("fr", 2, "other"), ("fr", 1_000_000, "many"), ("es", 1, "one"), ("es", 0, "other"),
            ("es", 2_000_000, "many"), ("es", 1_000_001, "other"),
        ])
    func pluralRulesFollowCLDR(language: String, count: Int, category: String) {
        #expect(PluralRules.category(of: count, language: language) == category)
    }

    @Test func numbersAndPricesUseTheLocalesSeparators() {
        #expect(WebStrings.forLocale("en").plural(.results, 200_000) == "200,000 results")
        #expect(WebStrings.forLocale("en").plural(.results, 1) == "1 result")
        #expect(WebStrings.forLocale("de").plural(.records, 200_000) == "200.000 Einträge")
        #expect(WebStrings.forLocale("de").plural(.records, 1) == "1 Eintrag")
        let hungarian = WebStrings.forLocale("hu").number(200_000)
        #expect(hungarian.hasPrefix("200") && hungarian.hasSuffix("000") && hungarian.count == 7)
        #expect(WebStrings.forLocale("de").price(Decimal(string: "24.90")!, currency: "EUR").contains("24,90"))
        #expect(WebStrings.forLocale("en").price(Decimal(string: "24.90")!, currency: "EUR") == "€24.90")
        // CLDR's digits, as Intl.NumberFormat shows them: none for the forint and the yen.
        func price(_ locale: String, _ value: String, _ currency: String) -> String {
            // The locales' spaces are non-breaking ones.
            WebStrings.forLocale(locale).price(Decimal(string: value)!, currency: currency)
                .replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
        }
        #expect(price("en", "4990", "HUF") == "HUF 4,990")
        #expect(price("en", "1800", "JPY") == "¥1,800")
        #expect(price("hu", "12.90", "HUF") == "13 Ft")
        #expect(price("en", "1.5", "KWD") == "KWD 1.500")
        #expect(price("en", "54", "EUR") == "€54.00")
        // A currency that is not a code is no currency.
        #expect(WebStrings.forLocale("en").price(Decimal(7), currency: "<b>") == "7")
    }

    @Test func acceptLanguagePicksTheBestSupportedLanguage() throws {
        #expect(WebStrings.negotiate("de-AT,de;q=0.9,en;q=0.5").language == "de")
        #expect(WebStrings.negotiate("xx, hu;q=0.2").language == "hu")
        #expect(WebStrings.negotiate("fr;q=0.1, sv").language == "sv")
        #expect(WebStrings.negotiate("zz").language == "en")
        #expect(WebStrings.negotiate(nil).language == "en")
        #expect(WebStrings.negotiate("de;q=0").language == "en")
        let home = try fixture.request("/", headers: [("Accept-Language", "hu-HU,hu;q=0.9")])
        #expect(home.text.contains("<html lang=\"hu\">"))
        #expect(home.text.contains("<title>Katalógusok</title>"))
        #expect(home.response.headers["Vary"]?.contains("Accept-Language") == true)
    }

    @Test func pagesWithoutACatalogSpeakTheBrowsersLanguageAndCatalogPagesTheirOwn() throws {
        let missing = try fixture.request("/c/sequencers/i/nope", headers: [("Accept-Language", "en")])
        #expect(missing.status == 404)
        #expect(missing.text.contains("Unter dieser Adresse gibt es keine Seite."))
        let nowhere = try fixture.request("/nowhere", headers: [("Accept-Language", "de")])
        #expect(nowhere.status == 404)
        #expect(nowhere.text.contains("<html lang=\"de\">"))
        let bad = try fixture.request("/c/cookbook?at=%21%21%21")
        #expect(bad.status == 400)
        #expect(bad.text.contains("Ez a cím érvénytelen."))
        #expect(!bad.text.contains("cursor"))
        // The sign-in page speaks the language of the catalog it returns to, with its tabs.
        let signIn = try fixture.request("/signin?next=%2Fc%2Fcookbook%2Ffavorites")
        #expect(signIn.text.contains("<html lang=\"hu\">"))
        #expect(signIn.text.contains("class=\"tabs\""))
        #expect(signIn.text.contains("Belépés"))
        #expect(
            SignInPage.waitMessage(seconds: 90, now: Date(timeIntervalSince1970: 0), strings: .forLocale("de"))
                == "Zu viele fehlgeschlagene Anmeldungen. Versuchen Sie es in 2 Minuten wieder (nach 00:01:30 UTC).")
    }

    @Test func fieldLabelsComeFromTheDefinitionThenTheRoles() throws {
        let recipe = try fixture.request("/c/cookbook/i/r01").text
        #expect(recipe.contains("<dt>Elkészítési idő</dt>"))
        #expect(recipe.contains("<dt>Kategória</dt>"))
        let product = try fixture.request("/c/products/i/p001").text
        #expect(product.contains("<dt>Item number</dt>"))
        #expect(product.contains("<dt>Weight</dt>"))
        #expect(product.contains("<dt>Price</dt><dd>€24.90</dd>"))
        #expect(product.contains("Germany"))
    }

    // MARK: - Lists at any depth

    @Test func aListStartsAtItsCursorAndLinksToTheRowsBeforeAndAfter() throws {
        try fixture.importElsewhere(
            CatalogGenerator(items: 450, seed: 3).definition,
            {
                var records: [Record] = []; CatalogGenerator(items: 450, seed: 3).forEachRecord { records.append($0) };
                return records
            }())
        let id = CatalogGenerator(items: 450, seed: 3).definition.id
        let positioned = try fixture.request("/api/v1/catalogs/\(id)/items?position=200&limit=3").object
        #expect(positioned["position"] as? Int == 200)
        #expect(positioned["count"] as? Int == 450)
        let cursors = try #require(positioned["cursors"] as? [String])
        let items = try #require(positioned["items"] as? [[String: Any]])
        let at = try fixture.request("/api/v1/catalogs/\(id)/items?at=\(cursors[1])&limit=2").object
        #expect(at["position"] as? Int == 201)
        #expect((at["items"] as? [[String: Any]])?.first?["id"] as? String == items[1]["id"] as? String)
        #expect(try fixture.request("/api/v1/catalogs/\(id)/items?position=-1").status == 400)
        #expect(try fixture.request("/api/v1/catalogs/\(id)/items?at=%21").status == 400)
        // `at` wins over `position` and both over keyset paging, whose values are still checked.
        #expect(try fixture.request("/api/v1/catalogs/\(id)/items?at=\(cursors[1])&position=-1").status == 400)
        #expect(try fixture.request("/api/v1/catalogs/\(id)/items?position=0&after=%21%21").status == 400)
        #expect(try fixture.request("/api/v1/catalogs/\(id)/items?position=0&before=%21%21").status == 400)
        #expect(try fixture.request("/api/v1/catalogs/\(id)/items?position=0&after=\(cursors[0])").status == 200)
        let outline = try fixture.request("/api/v1/catalogs/\(id)/outline").object
        #expect(outline["count"] as? Int == 450)

        // The page from that row: it comes first, the rows before are one link away.
        let page = try fixture.request("/c/\(id)?at=\(cursors[1])").text
        let first = try #require(page.firstMatch(of: /<li class="row[^"]*" data-id="([^"]+)"/)?.1)
        #expect(String(first) == items[1]["id"] as? String)
        #expect(page.contains("data-position=\"201\""))
        let earlier = try #require(page.firstMatch(of: /id="earlier" rel="prev" href="([^"]+)"/)?.1)
        let before = try fixture.request(String(earlier).replacingOccurrences(of: "&amp;", with: "&")).text
        #expect(before.contains("data-position=\"101\"") && before.contains("data-position=\"200\""))
        #expect(!before.contains("data-position=\"201\""))
        let later = try #require(page.firstMatch(of: /id="more" rel="next" href="([^"]+)"/)?.1)
        let after = try fixture.request(String(later)).text
        #expect(after.contains("data-position=\"301\""))
        #expect(!after.contains("data-position=\"300\""))
        // The rows' links carry the place, so the detail page's back link returns to it.
        #expect(page.contains("?at=\(cursors[1])\""))
        let detail = try fixture.request("/c/\(id)/i/\(items[1]["id"] as! String)?at=\(cursors[1])").text
        #expect(detail.contains("<a class=\"back\" href=\"/c/\(id)?at=\(cursors[1])\""))
    }

    @Test func theRailDimsEmptyLettersAndLeadsThemToTheNextSection() throws {
        let page = try fixture.request("/c/cookbook").text
        let empty = try #require(page.firstMatch(of: /data-label="([^"]+)" data-target="([^"]+)" class="empty-label"/))
        #expect(empty.1 != empty.2)
        let jumped = try fixture.request("/c/cookbook?from=" + WebPaths.encode(String(empty.1))).text
        let first = try #require(jumped.firstMatch(of: /<h2 class="section-header" id="s-([^"]+)"/)?.1)
        #expect(first == empty.2)
        #expect(jumped.contains("id=\"earlier\""))
    }

    @Test func categoryListsHaveSearchAndARailWhenLong() throws {
        // Five soups: a list that short has no rail (ListPage.railMinimum), the whole cookbook has.
        let soups = try fixture.request("/c/cookbook/categories/1").text
        #expect(!soups.contains("id=\"rail\""))
        #expect(soups.contains("class=\"sections no-rail\""))
        #expect(try fixture.request("/c/cookbook").text.contains("id=\"rail\""))
        #expect(soups.contains("role=\"search\""))
        #expect(soups.contains("data-rows=\"/c/cookbook/categories/1/rows\""))
        let searched = try fixture.request("/c/cookbook/categories/1?q=leves&search=1").text
        let rows = searched.matches(of: /<li class="row[^"]*" data-id="([^"]+)"/).map { String($0.1) }
        let soupIDs = try fixture.elsewhere { database in
            return try database.read { reader in
                return try reader.items(of: reader.requireCatalog("cookbook"), category: "Levesek", limit: 100).items
                    .map(
                        \.id)
            }
        }
        #expect(!rows.isEmpty)
        #expect(Set(rows).isSubset(of: Set(soupIDs)))
    }

    @Test func theFilterSheetOffersOnlyWhatTheCatalogHas() throws {
        // The sequencers have no prices, and their scopes are their categories.
        let sequencers = try fixture.request("/c/sequencers?q=o&search=1").text
        #expect(!sequencers.contains("price-range"))
        #expect(!sequencers.contains("<option value=\"price\""))
        #expect(!sequencers.contains("name=\"category\" value=\"Apple\""))
        // The products have prices; each of their categories is a scope button.
        let products = try fixture.request("/c/products?q=a&search=1").text
        #expect(products.contains("price-range") && products.contains("<option value=\"-price\""))
        #expect(!products.contains("name=\"category\" value=\"Tools\""))
        // A link that sorts or filters by price keeps its control.
        #expect(try fixture.request("/c/sequencers?q=o&sort=price").text.contains("<option value=\"price\" selected>"))
    }

    /// "No results" offers a query that finds something: a link with the same scope and filters,
    /// in the page and in the part the script swaps in.
    @Test func noResultsSuggestsAQueryThatFindsSomething() throws {
        let api = try fixture.request("/api/v1/catalogs/products/search?q=cappor")
        #expect(api.object["total"] as? Int == 0)
        #expect(api.object["suggestion"] as? String == "copper", "\(api.text)")
        let page = try fixture.request("/c/products?q=cappor&search=1").text
        #expect(page.contains(#"<a href="/c/products?q=copper&amp;search=1" id="suggestion">copper</a>"#))
        #expect(page.contains("Did you mean "))
        let rows = try fixture.request("/c/products/rows?q=cappor").text
        #expect(rows.contains(#"id="suggestion""#))
        #expect(!(try fixture.request("/c/products?q=copper").text.contains(#"id="suggestion""#)))
    }

    @Test func theListIsSortedWhileBrowsingWithTheRailBeforeTheSort() throws {
        let products = try fixture.request("/c/products").text
        #expect(products.contains("class=\"list\""))
        // After the rail (one Tab stop after the search field), before the rows; by name, chosen.
        let rail = try #require(products.range(of: "id=\"rail\""))
        let sort = try #require(products.range(of: "<select name=\"sort\" id=\"browse-sort\">"))
        let rows = try #require(products.range(of: "id=\"sections\""))
        #expect(rail.upperBound < sort.lowerBound && sort.upperBound < rows.lowerBound)
        let choices = try #require(products[sort.upperBound...].components(separatedBy: "</select>").first)
        #expect(choices.hasPrefix("<option value=\"title\" selected>"))
        #expect(choices.contains("<option value=\"-price\">") && !choices.contains("relevance"))
        // The catalog's sortable fields both ways, by their labels.
        #expect(choices.contains("<option value=\"weight\">Weight, ascending</option>"))
        #expect(choices.contains("<option value=\"-sku\">Item number, descending</option>"))
        let byWeight = try fixture.request("/c/products?search=1&sort=-weight").text
        #expect(byWeight.contains("<option value=\"-weight\" selected>Weight, descending</option>"))
        #expect(try fixture.request("/c/products?search=1&sort=colour").status == 400)
        // Without the script its button sends the form: every record, in that order.
        let sorted = try fixture.request("/c/products?search=1&sort=-price").text
        #expect(sorted.contains("class=\"list searching\"") && !sorted.contains("id=\"browse-sort\""))
        let prices = sorted.matches(of: /<span class="price">€([0-9.]+)<\/span>/).compactMap { Double($0.1) }
        #expect(prices.count > 1 && prices == prices.sorted(by: >))
        // A catalog without prices is not sorted by them.
        let sequencers = try fixture.request("/c/sequencers").text
        #expect(sequencers.contains("id=\"browse-sort\"") && !sequencers.contains("<option value=\"price\""))
    }

    @Test func searchFiltersAreInTheURLAndInTheForm() throws {
        let page = try fixture.request("/c/products?q=a&country=DE&country=fr&pmin=10&pmax=60&sort=-price").text
        #expect(page.contains("class=\"list searching\""))
        #expect(page.contains("name=\"country\" value=\"DE\" form=\"search-form\" checked"))
        #expect(page.contains("name=\"country\" value=\"FR\" form=\"search-form\" checked"))
        #expect(page.contains("<option value=\"-price\" selected>"))
        #expect(page.contains("name=\"pmin\" form=\"search-form\" min=\"0\" step=\"any\" value=\"10\""))
        #expect(page.contains("Filters (4)"))
        let prices = page.matches(of: /<span class="price">€([0-9.]+)<\/span>/).compactMap { Double($0.1) }
        #expect(!prices.isEmpty)
        #expect(prices == prices.sorted(by: >))
        #expect(prices.allSatisfy { (10...60).contains($0) })
        #expect(try fixture.request("/c/products?price=abc").status == 400)
        #expect(try fixture.request("/c/products?sort=sideways").status == 400)
        #expect(try fixture.request("/c/products?country=XYZ").status == 400)
    }

    @Test func thePanesRecordHasItsOwnURLAndTitle() throws {
        let page = try fixture.request("/c/products?open=p002").text
        #expect(page.contains("<title>Birchwood Desk Organizer</title>"))
        #expect(page.contains("class=\"split has-open\""))
        #expect(page.contains("<article class=\"detail\" data-id=\"p002\""))
        #expect(page.contains("id=\"pane-close\" href=\"/c/products\""))
        #expect(try fixture.request("/c/products?open=nope").status == 404)
    }

    // MARK: - The original apps' look

    @Test func theSequencersAreOneFlatTintedList() throws {
        let page = try fixture.request("/c/sequencers").text
        #expect(!page.contains("id=\"rail\""))
        #expect(!page.contains("class=\"section-header\""))
        #expect(page.contains("class=\"sections flat\""))
        let theme = try #require(page.firstMatch(of: /href="(\/themes\/sequencers\/[0-9a-f]+\.css)"/)?.1)
        let css = try fixture.request(String(theme))
        #expect(css.status == 200)
        #expect(css.text.contains("background: rgb(180,190,150)"))
        #expect(page.contains("class=\"row alt\""))
        #expect(try fixture.request("/themes/products/000000.css").status == 404)
        #expect(ThemeStylesheet.contrast([17, 17, 20], [180, 190, 150]) >= 4.5)
        let dark = ThemeStylesheet.css(tint: RowTint(red: 40, green: 40, blue: 90))
        #expect(dark.contains("--text: rgb(255,255,255)"))
        // The dark scheme gets a darkened sage on which the light text has the light scheme's contrast.
        let sage = [180, 190, 150]
        let variant = ThemeStylesheet.darkVariant(of: sage)
        #expect(css.text.contains("@media (prefers-color-scheme: dark)"))
        #expect(css.text.contains("background: rgb(\(variant.background.map(String.init).joined(separator: ",")))"))
        let lightContrast = ThemeStylesheet.contrast([17, 17, 20], sage)
        let darkContrast = ThemeStylesheet.contrast(variant.text, variant.background)
        #expect(darkContrast >= lightContrast && darkContrast < lightContrast + 0.25)
        #expect(ThemeStylesheet.luminance(variant.background) < ThemeStylesheet.luminance([28, 28, 30]) + 0.05)
    }

    @Test func rowTintsParseAndRoundTrip() throws {
        #expect(RowTint(parsing: "rgb(180, 190, 150)") == RowTint(red: 180, green: 190, blue: 150))
        #expect(RowTint(parsing: "#B4BE96") == RowTint(red: 180, green: 190, blue: 150))
        #expect(RowTint(parsing: "rgb(300,0,0)") == nil)
        #expect(RowTint(parsing: "red; background: url(x)") == nil)
        var definition = CatalogDefinition(id: "t", title: "T", locale: "de")
        definition.rowTint = RowTint(red: 1, green: 2, blue: 3)
        definition.flatList = true
        definition.fieldLabels = ["weight": ["de": "Gewicht"]]
        let decoded = try JSONDecoder().decode(CatalogDefinition.self, from: JSONEncoder().encode(definition))
        #expect(decoded == definition)
        #expect(decoded.fieldLabel("weight", language: "de-AT") == "Gewicht")
        // Definitions without them are written as before.
        let plain = String(
            decoding: try JSONEncoder().encode(CatalogDefinition(id: "t", title: "T", locale: "de")), as: UTF8.self)
        #expect(!plain.contains("flatList") && !plain.contains("rowTint") && !plain.contains("fieldLabels"))
    }

    @Test func everyCountryHasAFlagOrABadge() throws {
        #expect(SVGFlagProbe.codes.count == 249)
        for code in ["mx", "ar", "cn", "tw", "tr", "vn", "pt", "in", "zw", "aq"] {
            let reply = try fixture.request("/images/demo/flags/\(code).svg")
            #expect(reply.status == 200, "\(code)")
            #expect(!reply.text.contains("fill=\"#CCC\""), "\(code)")
        }
        #expect(try fixture.request("/images/demo/flags/zz.svg").status == 404)
        let badge = try fixture.request("/images/demo/flags/zw.svg").text
        #expect(badge.contains(">ZW</text>"))
    }

    // MARK: - Structured data and the sitemap

    @Test func detailPagesCarrySchemaOrgData() throws {
        func jsonLD(_ path: String) throws -> [String: Any] {
            let page = try fixture.request(path).text
            let json = try #require(page.firstMatch(of: /<script type="application\/ld\+json">(.*?)<\/script>/)?.1)
            let data = Data(String(json).utf8)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let product = try jsonLD("/c/products/i/p001")
        #expect(product["@type"] as? String == "Product")
        let offer = try #require(product["offers"] as? [String: Any])
        #expect(Double(offer["price"] as? String ?? "") == 24.9)
        #expect(offer["priceCurrency"] as? String == "EUR")
        #expect(offer["availability"] as? String == "https://schema.org/InStock")
        #expect((product["image"] as? [String])?.first?.hasPrefix("http") == true)
        let recipe = try jsonLD("/c/cookbook/i/r01")
        #expect(recipe["@type"] as? String == "Recipe")
        #expect(recipe["totalTime"] as? String == "PT1H")
        #expect(recipe["image"] != nil)
        let program = try jsonLD("/c/sequencers/i/klangwerk-studio")
        #expect(program["@type"] as? String == "Thing")
        #expect(program["name"] as? String == "Klangwerk Studio")
        #expect(StructuredData.isoDuration("1 óra 15 perc") == "PT1H15M")
        #expect(StructuredData.isoDuration("90 Minuten") == "PT1H30M")
        #expect(StructuredData.isoDuration("sok") == nil)
        // Text that would end the element is escaped.
        var html = HTMLWriter()
        html.scriptJSON(type: "application/ld+json", "{\"name\":\"</script><script>x\"}")
        #expect(!html.output.contains("</script><script>"))
    }

    @Test func theSitemapIsAnIndexOfStreamedParts() throws {
        let index = try fixture.request("/sitemap.xml").text
        #expect(index.contains("<sitemapindex"))
        #expect(index.contains("/sitemaps/cookbook/0.xml</loc>"))
        let part = try fixture.request("/sitemaps/products/0.xml")
        let xml = try Self.drain(part.response)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.components(separatedBy: "<url>").count - 1 == 40 + 3)
        #expect(xml.contains("/c/products/i/p040</loc>"))
        #expect(xml.hasSuffix("</urlset>\n"))
        #expect(try fixture.request("/sitemaps/products/1.xml").status == 404)
        #expect(try fixture.request("/sitemaps/products/x.xml").status == 404)
        #expect(Sitemap.urlsPerPart == 50_000)
    }

    // MARK: - Installable and offline

    @Test func theAppHasAManifestAServiceWorkerAndOfflinePages() throws {
        let manifest = try fixture.request("/manifest.webmanifest")
        #expect(manifest.response.headers["Content-Type"] == "application/manifest+json")
        let object = manifest.object
        let icons = try #require(object["icons"] as? [[String: Any]])
        #expect(
            icons.contains { $0["sizes"] as? String == "512x512" && ($0["src"] as? String) == WebAssets.icon512.path })
        #expect(try fixture.request(WebAssets.icon512.path).response.headers["Content-Type"] == "image/png")
        // In the page's language: a Hungarian catalog's pages link the Hungarian manifest.
        #expect(try fixture.request("/c/cookbook").text.contains("href=\"/manifest.webmanifest?lang=hu\""))
        let hungarian = try fixture.request("/manifest.webmanifest?lang=hu").object
        #expect(hungarian["lang"] as? String == "hu")
        #expect((hungarian["description"] as? String)?.contains("katalógus") == true)
        let negotiated = try fixture.request("/manifest.webmanifest", headers: [("Accept-Language", "sv-SE")]).object
        #expect(negotiated["lang"] as? String == "sv")
        #expect(try fixture.request("/manifest.webmanifest?lang=xx").object["lang"] as? String == "en")
        let worker = try fixture.request("/sw.js")
        #expect(worker.response.headers["Cache-Control"] == "no-cache")
        // Every module of the script is in the app shell.
        for module in WebAssets.modules { #expect(worker.text.contains("\"\(module.path)\""), "\(module.path)") }
        #expect(worker.text.contains("\"/offline/hu\""))
        let offline = try fixture.request("/offline/de").text
        #expect(offline.contains("Keine Verbindung"))
        #expect(try fixture.request("/offline/xx").status == 404)
        let csp = try fixture.request("/").response.headers["Content-Security-Policy"] ?? ""
        #expect(csp.contains("manifest-src 'self'") && csp.contains("worker-src 'self'"))
    }

    // MARK: - Favorites

    @Test func theBrowsersFavoritesAreMergedAtSignIn() throws {
        _ = try fixture.elsewhere { database in
            try Authenticator().addUser(name: "ilona", isAdmin: false, password: "leves-1234", in: database.users())
        }
        let form = try fixture.request("/signin")
        let csrf = try #require(
            form.response.headers["Set-Cookie"]?.split(separator: ";").first?.split(separator: "=").last)
        let local = "[[\"cookbook\",\"r03\"],[\"cookbook\",\"nope\"],[\"products\",\"p002\"]]"
        let encoded = local.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let signedIn = try fixture.request(
            .post, "/signin",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "catalog_csrf=\(csrf)")],
            body: Array("csrf=\(csrf)&name=ilona&password=leves-1234&next=%2F&favorites=\(encoded)".utf8))
        #expect(signedIn.status == 303)
        let favorites = try fixture.elsewhere { database in
            let users = try database.users()
            let user = try #require(try users.user(named: "ilona"))
            return try users.favorites(ofUser: user.id).map { "\($0.catalog)/\($0.item)" }
        }
        #expect(Set(favorites) == ["cookbook/r03", "products/p002"])
    }

    /// The whole body of a streamed response.
    static func drain(_ response: Response) throws -> String {
        if let bytes = response.bytes { return String(decoding: bytes, as: UTF8.self) }
        guard case .stream(let make) = response.body else { return "" }
        let stream = try make()
        var bytes: [UInt8] = []
        while let chunk = try stream.nextChunk() { bytes += chunk }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The assigned ISO 3166-1 codes, seen through the flags the server serves.
enum SVGFlagProbe {
    static let codes: [String] = {
        var codes: [String] = []
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                let code = String(decoding: [first, second], as: UTF8.self)
                if DemoImages.flag(code) != nil { codes.append(code) }
            }
        }
        return codes
    }()
}
