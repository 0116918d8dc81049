import FuzzDriver
import FuzzRender

/// Any bytes through the decoders' size paths alone: the headers read (a TIFF's directory, strip and tile sizes; a
/// GIF's screen and first image; an animated WebP's canvas and frame count), the declared sizes checked against the
/// limits and the plan's memory budget (`explain`), then the same bytes opened as an animation under a work limit
/// no frame fits, so each reader's up-front count runs but no pixel is decoded. Fast enough for millions of runs;
/// FuzzTIFF, FuzzGIF and FuzzWebPAnimation decode the pixels.
runFuzzer { FuzzRender.declaredSizes($0, $1) }
