// The public face: `import FilterRecipe` gives these, and nothing of the implementation modules (their other
// declarations are `package`). The types live in FilterCore and the codecs so every module of the package
// shares them.
import ColourProfiles
import FilterCore
import GIFCodec
import JPEGCodec
import JXLCodec
import PNGCodec
import HEIFCodec
import TIFFCodec
import WebPCodec

public typealias Recipe = FilterCore.Recipe
public typealias RecipeError = FilterCore.RecipeError
public typealias RecipeLimits = FilterCore.RecipeLimits
public typealias Params = FilterCore.Params
public typealias ParamValue = FilterCore.ParamValue
public typealias RGBA = FilterCore.RGBA
public typealias Backend = FilterCore.Backend
public typealias FilterID = FilterCore.FilterID
public typealias FilterSpec = FilterCore.FilterSpec
public typealias ParamSpec = FilterCore.ParamSpec
public typealias Conformance = FilterCore.Conformance
public typealias BlendMode = FilterCore.BlendMode
public typealias ResampleKernel = FilterCore.ResampleKernel
public typealias WorkingSpace = FilterCore.WorkingSpace
public typealias Fidelity = FilterCore.Fidelity
public typealias PixelBuffer = FilterCore.PixelBuffer
public typealias PixelFormat = FilterCore.PixelFormat
public typealias Residency = FilterCore.Residency
public typealias TransferCounts = FilterCore.TransferLedger.Counts
public typealias NodeTiming = FilterCore.RenderStats.NodeTiming
public typealias PNGWriteOptions = PNGCodec.PNGWriteOptions
public typealias JPEGWriteOptions = JPEGCodec.JPEGWriteOptions
public typealias WebPWriteOptions = WebPCodec.WebPWriteOptions
public typealias TIFFWriteOptions = TIFFCodec.TIFFWriteOptions
public typealias AVIFWriteOptions = HEIFCodec.AVIFWriteOptions
public typealias GIFWriteOptions = GIFCodec.GIFWriteOptions
public typealias JXLWriteOptions = JXLCodec.JXLWriteOptions
public typealias ColourProfile = ColourProfiles.ColourProfile
public typealias OutputError = FilterCore.OutputError
public typealias RenderControl = FilterCore.RenderControl
public typealias FailOn = FilterCore.FailOn
