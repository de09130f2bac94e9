package importer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // register decoders for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/media"
)

const (
	maxImageBytes  = 20 << 20
	maxImagePixels = media.MaxPixels // 40 megapixels, checked before decoding
	fetchTimeout   = 10 * time.Second
)

var imageTypes = map[string]string{
	"image/jpeg": ".jpg",
	"image/png":  ".png",
	"image/gif":  ".gif",
	"image/webp": ".webp",
}

// renditionWidths are the smaller copies made of each stored image; 600 is
// the listing thumbnail (storeapi.ThumbnailWidth).
var renditionWidths = []int{1200, 600, 300}

// images turns image URLs into catalogue images, downloading each URL once
// per import when asked to.
type images struct {
	w      catalog.Writer
	fetch  bool
	client *http.Client
	cache  map[string]catalog.Image
	sum    *Summary
}

func newImages(w catalog.Writer, opts Options, sum *Summary) *images {
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: fetchTimeout}
	}
	return &images{w: w, fetch: opts.FetchImages, client: client, cache: map[string]catalog.Image{}, sum: sum}
}

// get returns the image for a URL, with the product's name as alt text.
// Failures never reject a row: the image then points at the URL.
func (im *images) get(ctx context.Context, rawURL, alt string) catalog.Image {
	img, ok := im.cache[rawURL]
	if !ok {
		img = catalog.Image{Src: rawURL, Name: baseName(rawURL)}
		stored := false
		if im.fetch {
			if s, err := im.store(ctx, rawURL, alt); err == nil {
				img, stored = s, true
			}
		}
		if stored {
			im.sum.ImagesStored++
		} else {
			im.sum.ImagesKeptAsURL++
		}
		im.cache[rawURL] = img
	}
	img.Alt = alt
	return img
}

// store downloads an image and saves it as a media file. The image row is
// shared by every product that uses the URL; its alt text is the first one's.
func (im *images) store(ctx context.Context, rawURL, alt string) (catalog.Image, error) {
	data, err := im.download(ctx, rawURL)
	if err != nil {
		return catalog.Image{}, err
	}
	return StoreImage(ctx, im.w, data, rawURL, alt)
}

// StoreImage saves an image downloaded from rawURL into the media
// library, with its smaller renditions, and answers it with its id: a
// JPEG, PNG, GIF or WebP of a usable size, else an error. The WooCommerce
// migration (internal/wcimport) stores its images through it too.
func StoreImage(ctx context.Context, w catalog.Writer, data []byte, rawURL, alt string) (catalog.Image, error) {
	var err error
	ctype := http.DetectContentType(data)
	ext, ok := imageTypes[ctype]
	if !ok {
		return catalog.Image{}, fmt.Errorf("%s is %s, not an image", rawURL, ctype)
	}
	var width, height int
	if ctype == "image/webp" {
		width, height, err = webpSize(data)
	} else {
		var cfg image.Config
		cfg, _, err = image.DecodeConfig(bytes.NewReader(data))
		width, height = cfg.Width, cfg.Height
	}
	if err != nil {
		return catalog.Image{}, fmt.Errorf("%s: %w", rawURL, err)
	}
	if width <= 0 || height <= 0 || int64(width)*int64(height) > maxImagePixels {
		return catalog.Image{}, fmt.Errorf("%s: %dx%d is not a usable size", rawURL, width, height)
	}
	if ctype == "image/jpeg" && media.Orientation(data) >= 5 {
		width, height = height, width // browsers show it turned a quarter
	}
	sum := sha256.Sum256(data)
	name := baseName(rawURL)
	if !strings.EqualFold(path.Ext(name), ext) && !(ext == ".jpg" && strings.EqualFold(path.Ext(name), ".jpeg")) {
		name += ext
	}
	prefix := "imported/" + hex.EncodeToString(sum[:6]) + "-"
	file := prefix + name
	img := catalog.Image{Src: "/media/" + file, Name: name, Alt: alt, Width: width, Height: height}
	files := []catalog.MediaFile{{Path: file, ContentType: ctype, Data: data}}
	// Renditions are best effort: an image the browser may still show (an
	// animated WebP, say) is kept at full size only.
	if rs, err := media.Renditions(data, ctype, renditionWidths); err == nil {
		base := strings.TrimSuffix(name, path.Ext(name))
		for _, r := range rs {
			p := fmt.Sprintf("%s%s-%dw%s", prefix, base, r.Width, r.Ext)
			files = append(files, catalog.MediaFile{Path: p, ContentType: r.ContentType, Data: r.Data})
			img.Sizes = append(img.Sizes, catalog.ImageSize{Src: "/media/" + p, Width: r.Width, Height: r.Height})
		}
	}
	if err := w.SaveImage(ctx, &img, files); err != nil {
		return catalog.Image{}, err
	}
	return img, nil
}

func (im *images) download(ctx context.Context, rawURL string) ([]byte, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", rawURL)
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := im.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", rawURL, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxImageBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxImageBytes {
		return nil, fmt.Errorf("%s is larger than %d MiB", rawURL, maxImageBytes>>20)
	}
	return data, nil
}

// baseName is the URL's file name, reduced to characters safe in a path.
func baseName(rawURL string) string {
	p := rawURL
	if u, err := url.Parse(rawURL); err == nil {
		p = u.Path
	}
	var b strings.Builder
	for _, r := range path.Base(p) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), ".-")
	if name == "" {
		return "image"
	}
	return name
}

// webpSize reads a WebP image's dimensions from its first chunk (the
// standard library has no WebP decoder).
func webpSize(b []byte) (int, int, error) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, errors.New("not a WebP file")
	}
	switch string(b[12:16]) {
	case "VP8 ": // lossy: frame header after a 3-byte start code
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, errors.New("bad VP8 start code")
		}
		w := int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff)
		h := int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff)
		return w, h, nil
	case "VP8L": // lossless: 14-bit width-1 and height-1 after a signature byte
		if b[20] != 0x2f {
			return 0, 0, errors.New("bad VP8L signature")
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		return int(bits&0x3fff) + 1, int((bits>>14)&0x3fff) + 1, nil
	case "VP8X": // extended: 24-bit canvas width-1 and height-1
		w := int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h := int(b[27]) | int(b[28])<<8 | int(b[29])<<16
		return w + 1, h + 1, nil
	}
	return 0, 0, errors.New("unknown WebP chunk")
}
