package media

import "context"

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

// AcquireForTest takes a decoding slot, as an upload being worked on does.
func (l *Library) AcquireForTest(ctx context.Context) (func(), error) { return l.acquire(ctx) }
