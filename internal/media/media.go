// Package media makes smaller renditions of raster images (JPEG, PNG, GIF,
// WebP) for srcset lists and listing thumbnails.
package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // register decoders with image.Decode
	"image/jpeg"
	"image/png"
	"slices"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// MaxPixels is the largest image (width × height) Renditions decodes;
// larger ones, and ones over MaxDecodeBytes decoded, are refused from
// their header, before any pixel is decoded.
const MaxPixels = 40_000_000

// JPEGQuality is the quality renditions are encoded at.
const JPEGQuality = 82

// ErrTooLarge reports an image over MaxPixels.
var ErrTooLarge = errors.New("media: image too large to decode")

// Rendition is one resized copy of an image, already encoded.
type Rendition struct {
	Width, Height int
	ContentType   string // "image/jpeg" or "image/png"
	Ext           string // ".jpg" or ".png"
	Data          []byte
}

var rasterTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// Renditions decodes a raster image and returns a copy for each of widths
// that is smaller than the image, widest first, keeping the aspect ratio.
// Widths and aspect ratio are those of the image as displayed: a JPEG's EXIF
// orientation is applied. Opaque images become JPEGs; images with any
// transparent pixel become PNGs. An image no wider than the smallest width
// yields no renditions and no error.
func Renditions(data []byte, contentType string, widths []int) ([]Rendition, error) {
	if !rasterTypes[contentType] {
		return nil, fmt.Errorf("media: %s is not a raster image type", contentType)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("media: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("media: %dx%d image", cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels || DecodedBytes(cfg) > MaxDecodeBytes {
		return nil, fmt.Errorf("%w: %dx%d", ErrTooLarge, cfg.Width, cfg.Height)
	}
	orient := 1
	if contentType == "image/jpeg" {
		orient = Orientation(data)
	}
	ow, oh := orientedSize(cfg.Width, cfg.Height, orient)

	widths = slices.Clone(widths)
	slices.Sort(widths)
	slices.Reverse(widths)
	widths = slices.Compact(widths)
	widths = slices.DeleteFunc(widths, func(w int) bool { return w <= 0 || w >= ow })
	if len(widths) == 0 {
		return nil, nil
	}

	// The decoded pixels are held from the process's decoding budget.
	release, err := sharedBudget.Acquire(context.Background(), DecodedBytes(cfg))
	if err != nil {
		return nil, err
	}
	defer release()
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("media: %w", err)
	}
	alpha := !isOpaque(src)

	out := make([]Rendition, 0, len(widths))
	var prev image.Image
	for _, w := range widths {
		h := max(1, (w*oh+ow/2)/ow)
		var img *image.RGBA
		if prev == nil {
			// Scale the decoded pixels, then orient the (small) result.
			sw, sh := w, h
			if orient >= 5 {
				sw, sh = h, w
			}
			img = scale(src, sw, sh)
			img = orientImage(img, orient)
		} else {
			// Each halving step from the previous rendition is as good as
			// scaling the original and far cheaper.
			img = scale(prev, w, h)
		}
		prev = img
		r := Rendition{Width: w, Height: h}
		var buf bytes.Buffer
		if alpha {
			r.ContentType, r.Ext = "image/png", ".png"
			err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
		} else {
			r.ContentType, r.Ext = "image/jpeg", ".jpg"
			err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: JPEGQuality})
		}
		if err != nil {
			return nil, fmt.Errorf("media: encode %dw: %w", w, err)
		}
		r.Data = buf.Bytes()
		out = append(out, r)
	}
	return out, nil
}

// DisplaySize is an image's width and height as shown, from its header: a
// JPEG's EXIF orientation may swap them.
func DisplaySize(data []byte) (width, height int, err error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, err
	}
	orient := 1
	if format == "jpeg" {
		orient = Orientation(data)
	}
	w, h := orientedSize(cfg.Width, cfg.Height, orient)
	return w, h, nil
}

func scale(src image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return false
			}
		}
	}
	return true
}
