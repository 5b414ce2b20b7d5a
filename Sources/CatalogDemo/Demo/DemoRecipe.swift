/// One recipe of the Hungarian cookbook, as the demo's JSON source and its picture are made from it.
struct DemoRecipe: Sendable {
    var id: String
    var title: String
    var subtitle: String
    var description: String
    /// Preparation time, as the original app showed it.
    var complexity: String
    var categories: [String]
    /// Recommended ("hot") recipes.
    var hot: Bool

    /// The image path the record carries.
    var image: String { "/images/demo/recipes/\(id).svg" }

    /// The cookbook's categories: numeric id (`catid`), name, image.
    static let categories: [(id: Int, name: String)] = [
        (1, "Levesek"), (2, "Előételek"), (3, "Húsételek"), (4, "Tésztaételek"),
        (5, "Főzelékek"), (6, "Köretek"), (7, "Saláták"), (8, "Desszertek"),
    ]

    /// The image path of category `id`.
    static func categoryImage(_ id: Int) -> String { "/images/demo/categories/\(id).svg" }

    // swift-format-ignore
    /// Thirty-two recipes in our own words; titles exercise CS, GY, NY, SZ, ZS, Ö, Ő and C.
    static let all: [DemoRecipe] = [
        DemoRecipe(id: "r01", title: "Csirkepaprikás", subtitle: "Mari néni receptje alapján",
            description: "A csirkecombokat hagymás, pirospaprikás alapon puhára pároljuk, végül tejfölös mártással sűrítjük. Galuskával tálaljuk.",
            complexity: "1 óra", categories: ["Húsételek"], hot: true),
        DemoRecipe(id: "r02", title: "Csülkös bableves", subtitle: "vasárnapi klasszikus",
            description: "Füstölt csülökkel, tarkababbal és sok zöldséggel főzött, tartalmas leves. Egy kanál tejföllel és friss kenyérrel az igazi.",
            complexity: "2 óra", categories: ["Levesek"], hot: false),
        DemoRecipe(id: "r03", title: "Csőben sült karfiol", subtitle: "a hétköznapok kedvence",
            description: "Az előfőzött karfiolrózsákat tejfölös, sajtos öntettel tepsibe rakjuk, és aranybarnára sütjük.",
            complexity: "45 perc", categories: ["Köretek"], hot: false),
        DemoRecipe(id: "r04", title: "Csusza túróval és tepertővel", subtitle: "nagymama kedvence",
            description: "A frissen főtt széles metéltet tehéntúróval, tejföllel és ropogós tepertővel keverjük össze. Forrón, azonnal tálaljuk.",
            complexity: "30 perc", categories: ["Tésztaételek"], hot: false),
        DemoRecipe(id: "r05", title: "Gyümölcsleves", subtitle: "nyári frissítő",
            description: "Meggyből, almából és szilvából főzött, enyhén fahéjas hideg leves. Tejszínnel krémesítjük, és jól behűtve kínáljuk.",
            complexity: "30 perc", categories: ["Levesek", "Desszertek"], hot: true),
        DemoRecipe(id: "r06", title: "Gyöngyhagymás marharagu", subtitle: "Juci néni titkos fűszerezésével",
            description: "Apró gyöngyhagymával, sárgarépával és egy kevés vörösborral lassan párolt marhahús. Burgonyapürével kerek egész.",
            complexity: "2,5 óra", categories: ["Húsételek"], hot: false),
        DemoRecipe(id: "r07", title: "Gyömbéres sütőtök", subtitle: "őszi köret",
            description: "A sütőtököt gyömbérrel, mézzel és egy csipet sóval megsütjük. Sült húsok mellé és önmagában is finom.",
            complexity: "50 perc", categories: ["Köretek"], hot: false),
        DemoRecipe(id: "r08", title: "Nyers céklasaláta", subtitle: "vitaminbomba",
            description: "Lereszelt nyers céklát almával, citromlével és egy kevés tormával keverünk össze. Fél órát pihentetjük, hogy összeérjenek az ízek.",
            complexity: "20 perc", categories: ["Saláták", "Előételek"], hot: false),
        DemoRecipe(id: "r09", title: "Nyúlpaprikás", subtitle: "vadász módra",
            description: "A nyúlhúst szalonnás, paprikás alapon puhára pároljuk. Tejföllel dúsítjuk, és nokedlivel tálaljuk.",
            complexity: "1,5 óra", categories: ["Húsételek"], hot: false),
        DemoRecipe(id: "r10", title: "Székelykáposzta", subtitle: "télen a legjobb",
            description: "Savanyú káposzta és sertéspörkölt együtt főzve, bőven tejföllel. Másnap, újramelegítve még finomabb.",
            complexity: "2 óra", categories: ["Húsételek"], hot: true),
        DemoRecipe(id: "r11", title: "Szilvás gombóc", subtitle: "Kati néni receptje alapján",
            description: "Krumplis tésztába egész szilvát és egy kevés fahéjas cukrot csomagolunk. A kifőtt gombócokat vajas, pirított zsemlemorzsában megforgatjuk.",
            complexity: "1 óra", categories: ["Desszertek", "Tésztaételek"], hot: true),
        DemoRecipe(id: "r12", title: "Szegedi halászlé", subtitle: "a Tisza-parti hagyomány szerint",
            description: "Többféle folyami halból, sok hagymával és csípős paprikával főzött, sűrű halleves. Kenyérrel és erős paprikával kínáljuk.",
            complexity: "2 óra", categories: ["Levesek"], hot: false),
        DemoRecipe(id: "r13", title: "Zsemlegombóc", subtitle: "pörköltek mellé",
            description: "Kockára vágott, szikkadt zsemléből, tojásból és tejből gyúrt gombóc, forró vízben kifőzve. A szaftos húsételek hű kísérője.",
            complexity: "40 perc", categories: ["Köretek"], hot: false),
        DemoRecipe(id: "r14", title: "Zsályás csirkemell", subtitle: "könnyű vacsora",
            description: "A csirkemellet friss zsályával és citromhéjjal bedörzsöljük, majd serpenyőben szaftosra sütjük.",
            complexity: "30 perc", categories: ["Húsételek"], hot: false),
        DemoRecipe(id: "r15", title: "Öntöttvasban sült burgonya", subtitle: "kerti sütögetéshez",
            description: "Héjában negyedelt újburgonya rozmaringgal, fokhagymával és olívaolajjal, öntöttvas serpenyőben ropogósra sütve.",
            complexity: "45 perc", categories: ["Köretek"], hot: false),
        DemoRecipe(id: "r16", title: "Őszibarackos pite", subtitle: "nyári vendégváró",
            description: "Omlós tésztán lédús őszibarackszeletek és vaníliás krém. Langyosan, egy gombóc fagylalttal a legjobb.",
            complexity: "1,5 óra", categories: ["Desszertek"], hot: false),
        DemoRecipe(id: "r17", title: "Cukkinis lepény", subtitle: "gyorsan elkészíthető",
            description: "Reszelt cukkiniből, tojásból, lisztből és kaporból sütött vékony lepények. Fokhagymás joghurttal tálaljuk.",
            complexity: "30 perc", categories: ["Előételek"], hot: false),
        DemoRecipe(id: "r18", title: "Citromos túrótorta", subtitle: "sütés nélkül",
            description: "Kekszalapra citromos, habos túrókrém kerül, amely egy éjszaka alatt szépen megdermed a hűtőben.",
            complexity: "40 perc", categories: ["Desszertek"], hot: false),
        DemoRecipe(id: "r19", title: "Húsleves", subtitle: "vasárnapi ebédhez",
            description: "Marha- és tyúkhúsból, zöldségekkel, lassú tűzön főzött tiszta leves. Cérnametélttel vagy májgombóccal tálaljuk.",
            complexity: "3 óra", categories: ["Levesek"], hot: true),
        DemoRecipe(id: "r20", title: "Lecsó", subtitle: "nyári egytálétel",
            description: "Hagymával, paprikával és paradicsommal készül; tojással vagy kolbásszal még laktatóbb. Friss kenyérrel mártogatjuk.",
            complexity: "40 perc", categories: ["Főzelékek", "Előételek"], hot: false),
        DemoRecipe(id: "r21", title: "Rakott krumpli", subtitle: "nagymama kedvence",
            description: "Főtt burgonya, keménytojás és kolbász rétegezve, bőven megöntözve tejföllel, majd a sütőben összesütve.",
            complexity: "1,5 óra", categories: ["Húsételek", "Köretek"], hot: false),
        DemoRecipe(id: "r22", title: "Töltött paprika", subtitle: "Mari néni receptje alapján",
            description: "Húsos-rizses töltelékkel megtöltött zöldpaprika, édeskés paradicsomszószban főzve. Főtt burgonyával kínáljuk.",
            complexity: "2 óra", categories: ["Húsételek"], hot: true),
        DemoRecipe(id: "r23", title: "Mákos guba", subtitle: "karácsonyi desszert",
            description: "Felszeletelt kiflit vaníliás tejjel meglocsolunk, majd cukros mákkal megszórjuk, és a sütőben kissé megpirítjuk.",
            complexity: "30 perc", categories: ["Desszertek"], hot: false),
        DemoRecipe(id: "r24", title: "Hortobágyi palacsinta", subtitle: "ünnepi előétel",
            description: "Húsos töltelékkel töltött, feltekert palacsinták, paprikás, tejfölös mártással leöntve és átsütve.",
            complexity: "1,5 óra", categories: ["Előételek"], hot: false),
        DemoRecipe(id: "r25", title: "Káposztás kocka", subtitle: "egyszerű és olcsó",
            description: "Cukorral karamellizált, borsos párolt káposzta, kockatésztával összeforgatva. Van, aki még egy kis cukrot is szór rá.",
            complexity: "45 perc", categories: ["Tésztaételek"], hot: false),
        DemoRecipe(id: "r26", title: "Lencsefőzelék", subtitle: "újévi szerencsehozó",
            description: "Babérlevéllel főzött lencse, rántással és egy csepp ecettel ízesítve. Főtt tojással vagy sült kolbásszal tálaljuk.",
            complexity: "1 óra", categories: ["Főzelékek"], hot: false),
        DemoRecipe(id: "r27", title: "Uborkasaláta", subtitle: "grillezéshez",
            description: "Vékonyra gyalult uborka ecetes, cukros lében, pirospaprikával és tejföllel. Jól behűtve az igazi.",
            complexity: "15 perc", categories: ["Saláták"], hot: false),
        DemoRecipe(id: "r28", title: "Almás pite", subtitle: "Ilona néni receptje alapján",
            description: "Két omlós tésztalap között fahéjas, reszelt alma. Porcukorral megszórva, kockákra vágva kínáljuk.",
            complexity: "1,5 óra", categories: ["Desszertek"], hot: false),
        DemoRecipe(id: "r29", title: "Zöldborsóleves", subtitle: "tavaszi",
            description: "Friss zöldborsóból és sárgarépából főzött, petrezselyemzölddel ízesített könnyű leves, apró galuskával.",
            complexity: "40 perc", categories: ["Levesek"], hot: false),
        DemoRecipe(id: "r30", title: "Paprikás krumpli", subtitle: "diákkonyha kedvence",
            description: "Hagymás, paprikás alapon puhára főzött burgonya, karikára vágott kolbásszal. Savanyúsággal tálaljuk.",
            complexity: "45 perc", categories: ["Főzelékek"], hot: false),
        DemoRecipe(id: "r31", title: "Tojásos nokedli", subtitle: "gyors vacsora",
            description: "Frissen szaggatott nokedli, vajon, kevés tojással összesütve. Fejes saláta illik mellé.",
            complexity: "30 perc", categories: ["Tésztaételek"], hot: false),
        DemoRecipe(id: "r32", title: "Paradicsomsaláta", subtitle: "egyenesen a kertből",
            description: "Érett paradicsom, lilahagyma és friss bazsalikom, olívaolajjal és egy kevés balzsamecettel.",
            complexity: "10 perc", categories: ["Saláták"], hot: false),
    ]
}
