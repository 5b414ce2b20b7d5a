// libFuzzer target: the reader of uploaded images (CatalogImages.ImageReader), which recognises a
// file by its first bytes, checks its size from the header and decodes it with libgd before
// encoding it again. Any input must be stored or refused with an ImageReader.Failure, never
// crash or hang; what is stored is an image of a stored kind, within the pixel limit, that reads
// again as itself (the same kind and size), so a stored image never fails when it is served.
import CatalogImages
import CatalogStorage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let prepared: PreparedImage
    do {
        prepared = try ImageReader.read(bytes)
    } catch {
        if case .tooManyPixels(let width, let height) = error {
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            precondition(
                width <= 0 || height <= 0 || overflow || pixels > ImageReader.maxPixels,
                "refused \(width) × \(height) pixels")
        }
        return 0
    }
    precondition(["image/jpeg", "image/png", "image/webp"].contains(prepared.contentType), prepared.contentType)
    precondition(prepared.width > 0 && prepared.height > 0, "stored an image of \(prepared.width) × \(prepared.height)")
    precondition(prepared.width * prepared.height <= ImageReader.maxPixels, "stored too many pixels")
    precondition(
        ImageFormat(recognising: prepared.bytes)?.contentType == prepared.contentType, "stored bytes of another kind")
    guard let again = try? ImageReader.read(prepared.bytes) else {
        preconditionFailure("a stored \(prepared.contentType) does not read again")
    }
    precondition(again.width == prepared.width && again.height == prepared.height, "the size changed on reading again")
    return 0
}
