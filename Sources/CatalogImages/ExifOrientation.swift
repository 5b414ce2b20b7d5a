/// The orientation a camera wrote in a JPEG's EXIF block (tag 0x0112): how the stored pixels must
/// be turned to stand upright. The EXIF block is not kept when an image is stored, so its pixels
/// are turned before they are encoded again, or a phone's portrait photo would lie on its side.
enum ExifOrientation {
    /// The orientation, 1 (upright) to 8; 1 when the file says none (or says it badly).
    static func of(jpeg bytes: [UInt8]) -> Int {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 1 }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            // Start of scan or end of image: no more header segments.
            if marker == 0xDA || marker == 0xD9 { return 1 }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { return 1 }
            let start = index + 4
            if marker == 0xE1, length >= 8, bytes[start..<start + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                return orientation(tiff: bytes[(start + 6)..<(index + 2 + length)])
            }
            index += 2 + length
        }
        return 1
    }

    /// The orientation tag of IFD0 in a TIFF structure (little- or big-endian).
    private static func orientation(tiff: ArraySlice<UInt8>) -> Int {
        let base = tiff.startIndex
        guard tiff.count >= 8 else { return 1 }
        let little: Bool
        switch (tiff[base], tiff[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return 1
        }
        func read16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[base + offset])
            let b = Int(tiff[base + offset + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func read32(_ offset: Int) -> Int? {
            guard let low = read16(little ? offset : offset + 2), let high = read16(little ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard let ifd = read32(4), let entries = read16(ifd), entries <= 512 else { return 1 }
        for entry in 0..<entries {
            let at = ifd + 2 + entry * 12
            guard let tag = read16(at) else { return 1 }
            // Orientation: type SHORT (3), count 1, the value in the entry's first two bytes.
            if tag == 0x0112, read16(at + 2) == 3, let value = read16(at + 8), (1...8).contains(value) {
                return value
            }
        }
        return 1
    }
}
