extension CurrencyCode {
    /// Every active ISO 4217 alphabetic code (List One, as amended to 2025): national currencies,
    /// fund codes (`BOV`, `CHE`, `USN`, …), precious metals (`XAU`, …), the supranational units
    /// (`XDR`, `XSU`, `XUA`, `XBA`–`XBD`) and the codes for testing and for no currency (`XTS`,
    /// `XXX`). Withdrawn codes are not here: `HRK` (Croatia took the euro in 2023), `VEF` (now `VES`
    /// and `VED`), `MRO`, `STD`, `ZWL` (now `ZWG`), `ANG` (now `XCG`).
    static let active: Set<String> = Set(
        """
        AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN \
        BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR \
        FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES \
        KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR \
        MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF \
        SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD \
        TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR \
        XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG
        """.split(separator: " ").map(String.init))
}
