package media

// Helpers of the package's own tests, for the library's (package
// media_test, which opens real stores).
var (
	Halves          = halves
	WithAlpha       = withAlpha
	EncodeJPEG      = encodeJPEG
	EncodePNG       = encodePNG
	EncodeGIF       = encodeGIF
	PNGHeader       = pngHeader
	WithOrientation = withOrientation
)
