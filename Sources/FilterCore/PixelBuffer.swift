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
public protocol DeviceStorage: AnyObject {
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
    public let ledger: TransferLedger

    public private(set) var residency: Residency = .host
    public private(set) var device: DeviceStorage?

    private let storage: UnsafeMutableRawPointer

    public var byteCount: Int { rowStride * height }

    /// Allocates zeroed host memory. `rowStride` defaults to the packed row size.
    public init(width: Int, height: Int, format: PixelFormat, rowStride: Int? = nil,
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
    public func attach(device: DeviceStorage) {
        self.device = device
        if residency != .host { residency = .host }
        checkInvariant()
    }

    /// Drops the device allocation once the host copy is current (after a render, so device memory is not held by
    /// buffers that live on in the caller).
    public func detachDevice() throws {
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
    public func mutableHostBytes() throws -> UnsafeMutableRawPointer {
        _ = try hostBytes()
        residency = .host
        return storage
    }

    /// Makes the device copy current, uploading once if only the host copy is.
    public func prepareDevice() throws {
        guard let device else { preconditionFailure("no device allocation attached") }
        if residency == .host {
            try device.upload(from: storage, byteCount: byteCount)
            ledger.recordUpload(bytes: byteCount)
            residency = .both
        }
        checkInvariant()
    }

    /// Records that a kernel wrote the device copy; the host copy is stale from now on.
    public func deviceWasWritten() {
        precondition(device != nil, "no device allocation attached")
        residency = .device
    }

    /// Pointer to row `y` of the host copy, without any residency check (for backends that already checked).
    public func unsafeRow(_ y: Int) -> UnsafeMutableRawPointer {
        storage + y * rowStride
    }
}
