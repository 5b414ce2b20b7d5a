import CGD
import CatalogStorage

/// Reads an uploaded image for storing: recognises its format by its bytes, checks its size from
/// the header before anything is decoded, decodes it with libgd and encodes it again, so what is
/// stored is only pixels: no EXIF block (with the camera's location), no comments, no colour
/// profiles, nothing a crafted file smuggles in its chunks. JPEG stays JPEG, WebP stays WebP,
/// PNG and GIF become PNG (an animated GIF keeps its first frame). A JPEG's pixels are turned
/// upright first as its EXIF orientation says (``ExifOrientation``), since that tag goes too.
///
/// ```swift
/// let prepared = try ImageReader.read(bytes)   // PreparedImage: bytes, content type, size
/// ```
public enum ImageReader {
    /// The largest upload read: 16 MB.
    public static let maxBytes = 16 << 20
    /// The most pixels decoded: 40 megapixels (about 160 MB while decoding). A small file can
    /// claim 60,000 × 60,000 pixels; it is refused before the decoder allocates anything.
    public static let maxPixels = 40_000_000
    /// The JPEG quality images are encoded again with.
    public static let jpegQuality = 90

    /// Why an upload was refused.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The bytes are no JPEG, PNG, GIF or WebP file.
        case unsupportedFormat
        /// The file is larger than ``maxBytes``.
        case tooManyBytes(Int)
        /// The header says the image has more pixels than ``maxPixels``; nothing was decoded.
        case tooManyPixels(width: Int, height: Int)
        /// The file begins like an image of the format but cannot be decoded.
        case damaged(ImageFormat)

        public var description: String {
            switch self {
            case .unsupportedFormat: "the file is not a JPEG, PNG, GIF or WebP image"
            case .tooManyBytes(let count):
                "the image has \(count) bytes; images of up to \(ImageReader.maxBytes >> 20) MB are stored"
            case .tooManyPixels(let width, let height):
                "the image is \(width) × \(height) pixels; images of up to \(ImageReader.maxPixels / 1_000_000) "
                    + "megapixels are stored"
            case .damaged(let format): "the \(format.rawValue.uppercased()) image is damaged and cannot be decoded"
            }
        }
    }

    private static let silenced: Void = cgd_silence_errors()

    /// The image in `bytes`, decoded and encoded again.
    ///
    /// - Throws: ``Failure``.
    public static func read(_ bytes: [UInt8]) throws(Failure) -> PreparedImage {
        guard bytes.count <= maxBytes else { throw .tooManyBytes(bytes.count) }
        guard let format = ImageFormat(recognising: bytes) else { throw .unsupportedFormat }
        guard let (width, height) = ImageHeader.dimensions(of: bytes, contentType: format.contentType),
            width > 0, height > 0
        else { throw .damaged(format) }
        guard width <= maxPixels, height <= maxPixels, width * height <= maxPixels else {
            throw .tooManyPixels(width: width, height: height)
        }
        _ = silenced
        var copy = bytes
        let decoded: gdImagePtr? = copy.withUnsafeMutableBytes { buffer in
            let count = Int32(buffer.count)
            switch format {
            case .png: return gdImageCreateFromPngPtr(count, buffer.baseAddress)
            case .jpeg: return gdImageCreateFromJpegPtrEx(count, buffer.baseAddress, 1)
            case .gif: return gdImageCreateFromGifPtr(count, buffer.baseAddress)
            case .webp: return gdImageCreateFromWebpPtr(count, buffer.baseAddress)
            }
        }
        guard var decoded else { throw .damaged(format) }
        if format == .jpeg, let upright = upright(decoded, orientation: ExifOrientation.of(jpeg: bytes)) {
            gdImageDestroy(decoded)
            decoded = upright
        }
        defer { gdImageDestroy(decoded) }
        let decodedWidth = Int(cgd_width(decoded))
        let decodedHeight = Int(cgd_height(decoded))
        guard decodedWidth > 0, decodedHeight > 0, decodedWidth * decodedHeight <= maxPixels else {
            throw .tooManyPixels(width: decodedWidth, height: decodedHeight)
        }
        var size: Int32 = 0
        var output: UnsafeMutableRawPointer?
        var contentType = "image/png"
        switch format {
        case .jpeg:
            output = gdImageJpegPtr(decoded, &size, Int32(jpegQuality))
            contentType = "image/jpeg"
        case .webp:
            output = gdImageWebpPtrEx(decoded, &size, 90)
            contentType = "image/webp"
        case .png, .gif:
            break
        }
        if output == nil || size <= 0 {
            if let output { gdFree(output) }
            gdImageSaveAlpha(decoded, 1)
            output = gdImagePngPtr(decoded, &size)
            contentType = "image/png"
        }
        guard let output, size > 0 else { throw .damaged(format) }
        defer { gdFree(output) }
        return PreparedImage(
            bytes: Array(UnsafeRawBufferPointer(start: output, count: Int(size))), contentType: contentType,
            width: decodedWidth, height: decodedHeight)
    }

    /// `image` turned upright as an EXIF orientation says (2 to 8), a new image; nil when it
    /// already is (1), or when it is flipped in place (2, 4).
    private static func upright(_ image: gdImagePtr, orientation: Int) -> gdImagePtr? {
        // libgd turns counter-clockwise; 6 and 5, 7 need a quarter turn clockwise.
        switch orientation {
        case 2:
            gdImageFlipHorizontal(image)
            return nil
        case 3: return gdImageRotateInterpolated(image, 180, 0)
        case 4:
            gdImageFlipVertical(image)
            return nil
        case 5, 6, 7:
            guard let turned = gdImageRotateInterpolated(image, 270, 0) else { return nil }
            if orientation == 5 { gdImageFlipHorizontal(turned) }
            if orientation == 7 { gdImageFlipVertical(turned) }
            return turned
        case 8: return gdImageRotateInterpolated(image, 90, 0)
        default: return nil
        }
    }
}
