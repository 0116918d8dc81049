import FilterCore
import Foundation
import VulkanBackend

/// Why a render failed, as values a caller can switch over; `description` is the message a person reads (it names
/// the file or JSON path and the cause). `exitCode` is the command line's grouping: 2 the request, 3 an input
/// image, 4 the render or the output's writing, 130 cancelled.
public enum RenderError: Error, CustomStringConvertible {
    /// The recipe is wrong (every problem, each with its JSON path).
    case recipe(RecipeError)
    /// An input image is missing, unreadable, not an image we read, corrupt or too large.
    case input(InputFailure)
    /// The output could not be created, written or published (it exists, is not a regular file, disk full…).
    case output(OutputError)
    /// The GPU backend could not run: no device, out of device memory, or a failed device call.
    case device(DeviceFailure)
    /// The render was cancelled before it finished; nothing was written.
    case cancelled
    /// Anything else (a bug in the product, reported rather than trapped).
    case render(String)

    public struct InputFailure: Error, CustomStringConvertible, Sendable {
        public enum Kind: Sendable, Equatable {
            case missing, unreadable, notAnImage, corrupt, tooLarge
            /// A valid image of a variant this build does not read (a 12-bit or lossless JPEG).
            case unsupported
        }
        public let kind: Kind
        public let path: String
        /// The codec's words (libpng's, libjpeg's, the system's).
        public let message: String
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    public struct DeviceFailure: Error, CustomStringConvertible, Sendable {
        public enum Kind: Sendable, Equatable {
            /// No Vulkan loader or device (or none matching FILTERRUN_DEVICE).
            case unavailable
            /// The device ran out of memory, or the image exceeds its limits.
            case outOfMemory
            /// A device call failed (lost device, driver error, shader compilation).
            case failed
        }
        public let kind: Kind
        public let message: String
        public var description: String { message }
    }

    public var description: String {
        switch self {
        case .recipe(let e): return e.description
        case .input(let e): return e.description
        case .output(let e): return e.description
        case .device(let e): return e.description
        case .cancelled: return "cancelled"
        case .render(let m): return m
        }
    }

    /// 2 for a wrong request (recipe, an output that exists or is an input or not a regular file), 3 for an input
    /// image, 4 for a device, render or write failure, 130 when cancelled.
    public var exitCode: Int32 {
        switch self {
        case .recipe: return 2
        case .output(let e):
            switch e.kind {
            case .exists, .isInput, .notRegularFile, .unknownFormat: return 2
            case .notWritable, .diskFull, .io: return 4
            }
        case .input: return 3
        case .device, .render: return 4
        case .cancelled: return 130
        }
    }

    /// The error for a failure reading input `path`.
    static func reading(_ path: String, _ error: Error) -> RenderError {
        guard let codec = error as? CodecError else { return .input(InputFailure(kind: .unreadable, path: path, message: "\(error)")) }
        let kind: InputFailure.Kind
        switch codec.kind {
        case .io: kind = FileManager.default.fileExists(atPath: codec.path) ? .unreadable : .missing
        case .unrecognised: kind = .notAnImage
        case .corrupt: kind = .corrupt
        case .unsupported: kind = .unsupported
        case .tooLarge: kind = .tooLarge
        case .invalidRequest: kind = .unreadable
        }
        return .input(InputFailure(kind: kind, path: codec.path, message: codec.message))
    }

    /// The error for a failed Vulkan render or device.
    static func device(_ error: VulkanError) -> RenderError {
        let kind: DeviceFailure.Kind
        switch error.kind {
        case .unavailable: kind = .unavailable
        case .tooLarge: kind = .outOfMemory
        case .failed: kind = error.message.contains("out of device memory") || error.message.contains("out of host memory") ? .outOfMemory : .failed
        case .shader: kind = .failed
        }
        return .device(DeviceFailure(kind: kind, message: "\(error)"))
    }
}
