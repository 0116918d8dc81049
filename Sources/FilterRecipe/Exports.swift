@_exported import FilterCore
@_exported import PNGCodec
