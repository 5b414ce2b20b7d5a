/// The raster formats an upload may be in, recognised by the file's first bytes (its magic
/// number), never by what the sender says it is.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    /// The format `bytes` begin like, nil for anything else.
    ///
    /// ```swift
    /// ImageFormat(recognising: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // .png
    /// ```
    public init?(recognising bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The content type of a file of the format.
    public var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        }
    }
}
