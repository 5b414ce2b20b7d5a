import CGD
import CatalogImages
import Foundation

/// Scales raster images (PNG, JPEG, GIF, WebP) down to list-row thumbnails with libgd.
///
/// The dimensions are read from the file's header first, and images over
/// ``maxPixels`` are refused before anything is decoded: a small file claiming to be 60,000 ×
/// 60,000 pixels would otherwise make the decoder allocate gigabytes.
enum Thumbnailer {
    /// The largest image decoded: 40 megapixels (about 160 MB while decoding).
    static let maxPixels = ImageReader.maxPixels

    /// Why no thumbnail was made.
    enum Failure: Error, Equatable {
        /// The bytes are not an image of a kind that is scaled (or are damaged).
        case notAnImage
        /// The header says the image has more pixels than ``maxPixels``; nothing was decoded.
        case tooLarge(width: Int, height: Int)
    }

    /// `bytes` scaled to fit `size`×`size` (never enlarged), as PNG (JPEG for JPEG sources).
    ///
    /// - Throws: ``Failure``: `.tooLarge` before anything is decoded, `.notAnImage` when the
    ///   image cannot be decoded.
    static func thumbnail(of bytes: [UInt8], contentType: String, size: Int) throws(Failure) -> (
        bytes: [UInt8], contentType: String
    ) {
        guard let (width, height) = ImageHeader.dimensions(of: bytes, contentType: contentType),
            width > 0, height > 0, bytes.count < Int(Int32.max)
        else { throw .notAnImage }
        guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height) }
        var copy = bytes
        let decoded: gdImagePtr? = copy.withUnsafeMutableBytes { buffer in
            let count = Int32(buffer.count)
            switch contentType {
            case "image/png": return gdImageCreateFromPngPtr(count, buffer.baseAddress)
            case "image/jpeg": return gdImageCreateFromJpegPtrEx(count, buffer.baseAddress, 1)
            case "image/gif": return gdImageCreateFromGifPtr(count, buffer.baseAddress)
            case "image/webp": return gdImageCreateFromWebpPtr(count, buffer.baseAddress)
            default: return nil
            }
        }
        guard let decoded else { throw .notAnImage }
        defer { gdImageDestroy(decoded) }
        let scale = min(1, Double(size) / Double(max(cgd_width(decoded), cgd_height(decoded))))
        let newWidth = max(1, Int((Double(cgd_width(decoded)) * scale).rounded()))
        let newHeight = max(1, Int((Double(cgd_height(decoded)) * scale).rounded()))
        _ = gdImageSetInterpolationMethod(decoded, GD_BILINEAR_FIXED)
        guard let scaled = gdImageScale(decoded, UInt32(newWidth), UInt32(newHeight)) else { throw .notAnImage }
        defer { gdImageDestroy(scaled) }
        var outputSize: Int32 = 0
        let jpeg = contentType == "image/jpeg"
        let output: UnsafeMutableRawPointer?
        if jpeg {
            output = gdImageJpegPtr(scaled, &outputSize, 82)
        } else {
            gdImageSaveAlpha(scaled, 1)
            output = gdImagePngPtr(scaled, &outputSize)
        }
        guard let output, outputSize > 0 else { throw .notAnImage }
        defer { gdFree(output) }
        let result = Array(UnsafeRawBufferPointer(start: output, count: Int(outputSize)))
        return (result, jpeg ? "image/jpeg" : "image/png")
    }
}
