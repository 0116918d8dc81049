import Foundation

/// Where the valid copy of a buffer's pixels lives.
public enum Residency: String, Sendable {
    /// Only the host copy is current (the device copy is absent or stale).
    case host
    /// Only the device copy is current.
    case device
    /// Both copies hold the same pixels.
    case both
}

/// A device-side allocation that a backend attaches to a `PixelBuffer`. The buffer calls it only to move data;
/// the backend decides what the allocation is (a Vulkan buffer, an image, ...).
package protocol DeviceStorage: AnyObject {
    func upload(from source: UnsafeRawPointer, byteCount: Int) throws
    func download(to destination: UnsafeMutableRawPointer, byteCount: Int) throws
}

/// Pixels with a known format and layout, owned host memory and an optional device copy.
///
/// Invariant (checked on every transition): at least one copy is current, and a device residency implies a device
/// allocation. Data moves only when a consumer on the other side asks for it, and every move is counted in `ledger`.
public final class PixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// Bytes from one row to the next.
    public let rowStride: Int
    package let ledger: TransferLedger

    public private(set) var residency: Residency = .host
    package private(set) var device: DeviceStorage?

    private let storage: UnsafeMutableRawPointer

    public var byteCount: Int { rowStride * height }

    /// Allocates zeroed host memory. `rowStride` defaults to the packed row size. (Within the package; callers
    /// outside it use the throwing `init(width:height:format:copying:rowStride:)`.)
    package init(width: Int, height: Int, format: PixelFormat, rowStride: Int? = nil,
                ledger: TransferLedger = TransferLedger()) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        let packed = width * format.bytesPerPixel
        self.width = width
        self.height = height
        self.format = format
        self.rowStride = max(packed, rowStride ?? packed)
        self.ledger = ledger
        let bytes = self.rowStride * height
        storage = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit { storage.deallocate() }

    private func checkInvariant() {
        assert(residency == .host || device != nil, "device residency without a device allocation")
    }

    /// Attaches a device allocation; its contents are not current until the buffer is uploaded or written there.
    package func attach(device: DeviceStorage) {
        self.device = device
        if residency != .host { residency = .host }
        checkInvariant()
    }

    /// Drops the device allocation once the host copy is current (after a render, so device memory is not held by
    /// buffers that live on in the caller).
    package func detachDevice() throws {
        _ = try hostBytes()
        device = nil
        residency = .host
        checkInvariant()
    }

    /// Makes the host copy current (downloading once if only the device copy is) and returns it for reading.
    public func hostBytes() throws -> UnsafeRawPointer {
        if residency == .device, let device {
            try device.download(to: storage, byteCount: byteCount)
            ledger.recordDownload(bytes: byteCount)
            residency = .both
        }
        checkInvariant()
        return UnsafeRawPointer(storage)
    }

    /// Returns the host copy for writing; afterwards only the host copy is current.
    package func mutableHostBytes() throws -> UnsafeMutableRawPointer {
        _ = try hostBytes()
        residency = .host
        return storage
    }

    /// Makes the device copy current, uploading once if only the host copy is.
    package func prepareDevice() throws {
        guard let device else { preconditionFailure("no device allocation attached") }
        if residency == .host {
            try device.upload(from: storage, byteCount: byteCount)
            ledger.recordUpload(bytes: byteCount)
            residency = .both
        }
        checkInvariant()
    }

    /// Records that a kernel wrote the device copy; the host copy is stale from now on.
    package func deviceWasWritten() {
        precondition(device != nil, "no device allocation attached")
        residency = .device
    }

    /// Pointer to row `y` of the host copy, without any residency check (for backends that already checked).
    package func unsafeRow(_ y: Int) -> UnsafeMutableRawPointer {
        storage + y * rowStride
    }
}

/// Raw pixels in and out, checked: nothing a caller passes can stop the process.
extension PixelBuffer {
    /// Why raw pixels were refused.
    public struct LayoutError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// A buffer holding a copy of `bytes`: `height` rows of `width` pixels in `format`, rows `rowStride` bytes
    /// apart (default: packed). Integer formats hold sRGB-encoded straight values (16-bit in host byte order).
    public convenience init(width: Int, height: Int, format: PixelFormat, copying bytes: Data, rowStride: Int? = nil) throws {
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20,
              width.multipliedReportingOverflow(by: height).partialValue <= Recipe.maxPixels else {
            throw LayoutError(description: "\(width)×\(height) is not a size an image may have (1…2^20 a side, at most 2^28 pixels)")
        }
        let packed = width * format.bytesPerPixel
        let stride = rowStride ?? packed
        guard stride >= packed else {
            throw LayoutError(description: "a row stride of \(stride) bytes is less than a row of \(packed) bytes")
        }
        let needed = stride * (height - 1) + packed
        guard bytes.count >= needed else {
            throw LayoutError(description: "\(bytes.count) bytes hold less than \(width)×\(height) \(format.rawValue) pixels (\(needed) bytes)")
        }
        self.init(width: width, height: height, format: format)
        let base = try mutableHostBytes()
        bytes.withUnsafeBytes { source in
            for y in 0..<height { (base + y * self.rowStride).copyMemory(from: source.baseAddress! + y * stride, byteCount: packed) }
        }
    }

    /// The pixels as packed rows (no padding), in `format`.
    public func packedData() throws -> Data {
        let base = try hostBytes()
        let packed = width * format.bytesPerPixel
        var data = Data(count: packed * height)
        data.withUnsafeMutableBytes { out in
            for y in 0..<height { (out.baseAddress! + y * packed).copyMemory(from: base + y * rowStride, byteCount: packed) }
        }
        return data
    }
}

extension PixelBuffer: CustomStringConvertible {
    /// "600×400 rgb8 on the host": what `print` shows.
    public var description: String {
        "\(width)×\(height) \(format.rawValue) on the \(residency == .host ? "host" : residency == .device ? "device" : "host and device")"
    }
}
