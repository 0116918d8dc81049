import CJXL
import FilterCore

/// What the still and animation writers set alike on a libjxl encoder; `check` turns a failed status into the
/// writer's error, naming what was being set.
enum JXLEncoderSetup {
    /// Exif (behind its 4-byte offset to the TIFF header, here 0) and XMP as boxes of the container.
    static func addMetadata(_ metadata: OutputMetadata?, to encoder: OpaquePointer,
                            check: (JxlEncoderStatus, String) throws -> Void) throws {
        guard metadata?.exif != nil || metadata?.xmp != nil else { return }
        try check(JxlEncoderUseBoxes(encoder), "its metadata boxes")
        if let exif = metadata?.exif {
            let box = [0, 0, 0, 0] + exif
            try check(box.withUnsafeBufferPointer { JxlEncoderAddBox(encoder, "Exif", $0.baseAddress, $0.count, 0) }, "its Exif")
        }
        if let xmp = metadata?.xmp {
            try check(xmp.withUnsafeBufferPointer { JxlEncoderAddBox(encoder, "xml ", $0.baseAddress, $0.count, 0) }, "its XMP")
        }
        JxlEncoderCloseBoxes(encoder)
    }

    /// Effort, and lossless or the quality's distance, for every frame.
    static func apply(_ options: JXLWriteOptions, to settings: OpaquePointer, check: (JxlEncoderStatus, String) throws -> Void) throws {
        try check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(options.effort)), "its effort")
        if options.lossless {
            try check(JxlEncoderSetFrameLossless(settings, 1), "lossless mode")
        } else {
            try check(JxlEncoderSetFrameDistance(settings, options.distance), "its quality")
        }
    }
}
