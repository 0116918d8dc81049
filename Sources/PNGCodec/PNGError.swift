import FilterCore

/// PNG read and write failures are codec errors (the shared type, so callers handle every format alike).
package typealias PNGError = CodecError
