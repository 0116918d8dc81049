@_exported import FilterCore
@_exported import PNGCodec
@_exported import JPEGCodec
@_exported import ColourProfiles
