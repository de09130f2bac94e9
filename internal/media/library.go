package media

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"net/http"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/disintegration/imaging"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/space"
)

// The media library: images a shop manager uploads in the admin,
// kept as rows of the catalogue's images (the same rows products point at)
// with WordPress's attachment fields besides.
//
// An upload is checked by its content, never by the name or type the
// client gave: the bytes must sniff as JPEG, PNG, GIF or WebP, decode as
// that format, hold no markup (an image that is also an HTML or SVG page,
// a polyglot, is refused), stay under MaxUploadBytes, and have dimensions
// under the caps, read from the header (image.DecodeConfig) before a pixel
// is decoded, so a small file that would inflate into gigabytes (a
// decompression bomb) costs nothing: its sides, its area and its decoded
// size (MaxDecodeBytes, budget.go). Each decode then holds its decoded
// size from the shared Budget, and the library's files stay under the
// Quota and above the disk's floor. Only then is it decoded, its EXIF
// orientation applied, and encoded again from the pixels: what is stored
// and served carries no metadata (camera, GPS position) and none of the
// uploaded bytes. Files are stored in the database (media_files) and served
// from /media/ as the stored type with nosniff, so nothing uploaded can
// ever run.
//
// The sizes (Sizes) are made in a second step, as in WordPress: Add stores
// the original first (pending), then makes the sizes; when that fails the
// client asks again (CreateSubsizes, POST .../post-process) and, after its
// retries, deletes the upload.

// Upload limits.
const (
	// MaxUploadBytes is the largest file accepted.
	MaxUploadBytes = 20 << 20
	// MaxSide is the longest side accepted, in pixels (MaxPixels caps
	// the area).
	MaxSide = 16_384
	// BigImageSide is the longest side the stored original keeps; a larger
	// upload is scaled down to it (WordPress's big image threshold).
	BigImageSide = 2560
	// UploadJPEGQuality is the quality stored originals are encoded at.
	UploadJPEGQuality = 90
)

// Size is a named image size made for each upload, by width, keeping the
// aspect ratio; only sizes narrower than the image are made.
type Size struct {
	Name  string
	Width int
}

// Sizes are the sizes made of uploads: the widths imports make too
// (importer.renditionWidths), under WordPress and WooCommerce's names, so
// the storefront's srcset and listing thumbnail (600) work alike for both.
var Sizes = []Size{{"medium", 300}, {"woocommerce_single", 600}, {"large", 1200}}

// SizeName is the name of a size by its width ("w450" for a width no size
// has, as imported images may).
func SizeName(width int) string {
	for _, s := range Sizes {
		if s.Width == width {
			return s.Name
		}
	}
	return fmt.Sprintf("w%d", width)
}

// Upload refusals.
var (
	ErrNoData       = errors.New("media: no file was sent")
	ErrFileTooBig   = fmt.Errorf("media: the file is larger than %d MB", MaxUploadBytes>>20)
	ErrType         = errors.New("media: the file is not a JPEG, PNG, GIF or WebP image")
	ErrImageTooBig  = errors.New("media: the image's dimensions are too large")
	ErrInvalidField = errors.New("media: invalid field")
)

// FieldError is a bad field of an upload or an edit; it is ErrInvalidField.
type FieldError struct {
	Field string // WordPress's name: title, alt_text, caption, search
	Why   string
}

func (e *FieldError) Error() string        { return "media: " + e.Field + ": " + e.Why }
func (e *FieldError) Is(target error) bool { return target == ErrInvalidField }

// Attachment is an image of the media library: WordPress's attachment.
type Attachment struct {
	catalog.Image
	Title    string
	MimeType string
	// Uploaded is when it was uploaded; zero for images imported or
	// seeded before the library existed.
	Uploaded time.Time
	AuthorID int64
	// Pending means the sizes are not made yet.
	Pending bool
}

// Query narrows a library listing.
type Query struct {
	Search         string // in title, file name and alt text
	Offset, Limit  int
	IncludeIDs     []int64 // only these (the picker's chosen images)
	OnlyUploadedBy int64
}

// LibraryStore keeps the library. Every change to an image a product or a
// category shows is recorded in the catalogue's change log in the same
// transaction, so the pages showing it are refreshed.
type LibraryStore interface {
	// AddAttachment stores a new attachment (its ID is set) and its file.
	AddAttachment(ctx context.Context, a *Attachment, file catalog.MediaFile) error
	// Attachment reads one (catalog.ErrNotFound when there is none).
	Attachment(ctx context.Context, id int64) (*Attachment, error)
	// Attachments lists newest first, with the total matching.
	Attachments(ctx context.Context, q Query) ([]Attachment, int, error)
	// Media reads a stored file by path (catalog.ErrNotFound).
	Media(ctx context.Context, path string) (*catalog.MediaFile, error)
	// SetAttachmentSizes stores the sizes' files, records them and clears
	// Pending.
	SetAttachmentSizes(ctx context.Context, id int64, sizes []catalog.ImageSize, files []catalog.MediaFile) error
	// UpdateAttachment saves Title, Alt and Caption.
	UpdateAttachment(ctx context.Context, a *Attachment) error
	// DeleteAttachment removes the row, its files (under /media/) and the
	// products' links to it.
	DeleteAttachment(ctx context.Context, id int64) error
	// MediaBytes is the bytes of every stored file under /media/
	// (uploads, their sizes, imported and seeded images).
	MediaBytes(ctx context.Context) (int64, error)
}

// Library is the media library's use cases.
type Library struct {
	Store LibraryStore
	Now   func() time.Time
	// Budget bounds the decoded pixels held at once (nil: the process's
	// shared DecodeBudget): an upload holds its decoded size while it is
	// worked on, so uploads beyond the budget wait their turn rather than
	// add up.
	Budget *Budget
	// Quota bounds the bytes of the stored files (MediaBytes) an upload
	// may add to (0: no bound): over it the upload is refused with a
	// *space.QuotaError before it is decoded.
	Quota int64
	// Disk refuses uploads while the store's disk is low (nil: no check).
	Disk *space.Disk
}

// acquire holds n bytes of the decoding budget (or waits for the
// request's end).
func (l *Library) acquire(ctx context.Context, n int64) (release func(), err error) {
	b := l.Budget
	if b == nil {
		b = sharedBudget
	}
	return b.Acquire(ctx, n)
}

// Usage is the bytes of the stored files and the quota (0: none), for
// the admin.
func (l *Library) Usage(ctx context.Context) (space.Usage, error) {
	used, err := l.Store.MediaBytes(ctx)
	return space.Usage{Used: used, Quota: max(l.Quota, 0)}, err
}

// room refuses an upload of n bytes while the disk is low or when the
// stored files would go over the quota. The decoding budget bounds the
// uploads in flight, so concurrent ones may pass together by at most
// their own sizes (uploads are staff's alone).
func (l *Library) room(ctx context.Context, n int64) error {
	if err := l.Disk.Check(); err != nil {
		return errors.Join(space.ErrDiskLow, err)
	}
	if l.Quota <= 0 {
		return nil
	}
	used, err := l.Store.MediaBytes(ctx)
	if err != nil {
		return err
	}
	if used+n > l.Quota {
		return &space.QuotaError{Used: used, Quota: l.Quota, Size: n}
	}
	return nil
}

// NewUpload is a file to add.
type NewUpload struct {
	// FileName is the client's name for it: used for the stored name and
	// the default title, never to decide the type.
	FileName string
	Data     []byte
	Title    string
	Alt      string
	AuthorID int64
}

// Checked is what Check learnt of an upload's bytes.
type Checked struct {
	MimeType      string // the sniffed type
	Width, Height int    // as stored (before orientation)
	// Decoded is the bytes its pixels take once decoded (DecodedBytes).
	Decoded int64
}

// markup is what a file that is also a page would hold. Our images are
// re-encoded before they are served, so this refusal is defence in depth:
// the client learns at once that the file is not a plain image.
// Four-byte markers would turn up by chance in compressed pixels, so
// "<svg" counts only before a space, a slash or ">".
var markup = [][]byte{[]byte("<script"), []byte("<html"), []byte("<!doctype"), []byte("<?php"), []byte("<iframe"),
	[]byte("<body"), []byte("<?xml"), []byte("<svg "), []byte("<svg\n"), []byte("<svg\t"), []byte("<svg\r"), []byte("<svg/"), []byte("<svg>")}

// formats maps sniffed types to image.DecodeConfig's format names.
var formats = map[string]string{"image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif", "image/webp": "webp"}

// Check refuses what is not a plain raster image small enough to decode,
// from its bytes alone and without decoding its pixels.
func Check(data []byte) (Checked, error) {
	if len(data) == 0 {
		return Checked{}, ErrNoData
	}
	if len(data) > MaxUploadBytes {
		return Checked{}, ErrFileTooBig
	}
	mime := http.DetectContentType(data)
	format, ok := formats[mime]
	if !ok {
		return Checked{}, fmt.Errorf("%w (it reads as %s)", ErrType, strings.Split(mime, ";")[0])
	}
	if hasMarkup(data) {
		return Checked{}, fmt.Errorf("%w (it holds markup)", ErrType)
	}
	cfg, got, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || got != format {
		return Checked{}, fmt.Errorf("%w (it does not decode as %s)", ErrType, format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSide || cfg.Height > MaxSide ||
		int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return Checked{}, fmt.Errorf("%w: %d×%d pixels (at most %d on a side and %d megapixels)",
			ErrImageTooBig, cfg.Width, cfg.Height, MaxSide, MaxPixels/1_000_000)
	}
	decoded := DecodedBytes(cfg)
	if decoded > MaxDecodeBytes {
		return Checked{}, fmt.Errorf("%w: %d×%d pixels of %d bytes each would take %d MB decoded (at most %d MB)",
			ErrImageTooBig, cfg.Width, cfg.Height, BytesPerPixel(cfg.ColorModel), decoded>>20, MaxDecodeBytes>>20)
	}
	return Checked{MimeType: mime, Width: cfg.Width, Height: cfg.Height, Decoded: decoded}, nil
}

func hasMarkup(data []byte) bool {
	// Every marker starts with "<": look at each one, folding ASCII case
	// (bytes.ToLower would decode the binary as UTF-8, far slower).
	for i := 0; i < len(data); i++ {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			return false
		}
		i += j
		for _, m := range markup {
			if hasPrefixFold(data[i:], m) {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold says whether b starts with the lower-case ASCII prefix,
// in any case.
func hasPrefixFold(b, prefix []byte) bool {
	if len(b) < len(prefix) {
		return false
	}
	for k, c := range prefix {
		x := b[k]
		if x >= 'A' && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != c {
			return false
		}
	}
	return true
}

// Add checks an upload, stores its cleaned original (pending) and makes
// its sizes. When the sizes fail the attachment is returned with the
// error: it exists, and the client may ask for the sizes again
// (CreateSubsizes) or delete it.
func (l *Library) Add(ctx context.Context, up NewUpload) (*Attachment, error) {
	if utf8.RuneCountInString(up.Title) > 200 {
		return nil, &FieldError{"title", "The title is at most 200 characters."}
	}
	if utf8.RuneCountInString(up.Alt) > 500 {
		return nil, &FieldError{"alt_text", "The alt text is at most 500 characters."}
	}
	c, err := Check(up.Data)
	if err != nil {
		return nil, err
	}
	if err := l.room(ctx, int64(len(up.Data))); err != nil {
		return nil, err
	}
	release, err := l.acquire(ctx, decodeWeight(c, up.Data))
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := imaging.Decode(bytes.NewReader(up.Data), imaging.AutoOrientation(true))
	if err != nil {
		return nil, fmt.Errorf("%w (it cannot be decoded: %v)", ErrType, err)
	}
	if b := img.Bounds(); max(b.Dx(), b.Dy()) > BigImageSide {
		if b.Dx() >= b.Dy() {
			img = imaging.Resize(img, BigImageSide, 0, imaging.Lanczos)
		} else {
			img = imaging.Resize(img, 0, BigImageSide, imaging.Lanczos)
		}
	}
	// The original keeps its format, except WebP (no encoder in the
	// standard library): stored as PNG or JPEG as the sizes are.
	format := c.MimeType
	if format == "image/webp" {
		format = ""
	}
	data, mime, ext, err := encode(img, format)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	if l.Now != nil {
		now = l.Now().UTC()
	}
	stem := slugOf(up.FileName)
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	base := fmt.Sprintf("uploads/%04d/%02d/%s-%s", now.Year(), now.Month(), stem, hex.EncodeToString(rnd[:]))
	title := strings.TrimSpace(up.Title)
	if title == "" {
		title = titleOf(up.FileName)
	}
	b := img.Bounds()
	a := &Attachment{
		Image: catalog.Image{Src: "/media/" + base + ext, Width: b.Dx(), Height: b.Dy(), Alt: strings.TrimSpace(up.Alt),
			Name: stem + ext},
		Title: title, MimeType: mime, Uploaded: now, AuthorID: up.AuthorID, Pending: true,
	}
	if err := l.Store.AddAttachment(ctx, a, catalog.MediaFile{Path: base + ext, ContentType: mime, Data: data}); err != nil {
		return nil, err
	}
	done, err := l.makeSizes(ctx, a, img)
	if err != nil {
		return a, err
	}
	return done, nil
}

// CreateSubsizes makes a pending attachment's sizes (WordPress's
// post-process action create-image-subsizes); for one already done it
// answers the attachment as it is.
func (l *Library) CreateSubsizes(ctx context.Context, id int64) (*Attachment, error) {
	a, err := l.Store.Attachment(ctx, id)
	if err != nil {
		return nil, err
	}
	if !a.Pending {
		return a, nil
	}
	f, err := l.Store.Media(ctx, strings.TrimPrefix(a.Src, "/media/"))
	if err != nil {
		return nil, fmt.Errorf("media: the original of %d: %w", id, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil {
		return nil, fmt.Errorf("media: the original of %d: %w", id, err)
	}
	release, err := l.acquire(ctx, DecodedBytes(cfg))
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := imaging.Decode(bytes.NewReader(f.Data))
	if err != nil {
		return nil, fmt.Errorf("media: decode the original of %d: %w", id, err)
	}
	return l.makeSizes(ctx, a, img)
}

// decodeWeight is what an upload holds of the budget while it is worked
// on: its decoded pixels, and a full-size 8-bit copy when a JPEG's EXIF
// orientation turns it.
func decodeWeight(c Checked, data []byte) int64 {
	w := c.Decoded
	if c.MimeType == "image/jpeg" && Orientation(data) > 1 {
		w += int64(c.Width) * int64(c.Height) * 4
	}
	return w
}

// makeSizes encodes each size narrower than img and stores them.
func (l *Library) makeSizes(ctx context.Context, a *Attachment, img image.Image) (*Attachment, error) {
	b := img.Bounds()
	dot := strings.LastIndexByte(a.Src, '.')
	base := strings.TrimPrefix(a.Src[:dot], "/media/")
	var sizes []catalog.ImageSize
	var files []catalog.MediaFile
	for i := len(Sizes) - 1; i >= 0; i-- { // widest first
		w := Sizes[i].Width
		if w >= b.Dx() {
			continue
		}
		small := imaging.Resize(img, w, 0, imaging.Lanczos)
		data, mime, ext, err := encode(small, "")
		if err != nil {
			return nil, err
		}
		h := small.Bounds().Dy()
		p := fmt.Sprintf("%s-%dx%d%s", base, w, h, ext)
		files = append(files, catalog.MediaFile{Path: p, ContentType: mime, Data: data})
		sizes = append(sizes, catalog.ImageSize{Src: "/media/" + p, Width: w, Height: h})
	}
	if err := l.Store.SetAttachmentSizes(ctx, a.ID, sizes, files); err != nil {
		return nil, fmt.Errorf("media: store the sizes of %d: %w", a.ID, err)
	}
	a.Sizes, a.Pending = sizes, false
	return a, nil
}

// encode writes img as format ("image/jpeg", "image/png", "image/gif"), or
// when format is "" as a JPEG when it is opaque and a PNG otherwise.
func encode(img image.Image, format string) (data []byte, mime, ext string, err error) {
	if format == "" {
		format = "image/png"
		if isOpaque(img) {
			format = "image/jpeg"
		}
	}
	var buf bytes.Buffer
	switch format {
	case "image/jpeg":
		ext = ".jpg"
		if n, ok := img.(*image.NRGBA); ok && n.Opaque() {
			// Opaque, its pixels are the same premultiplied or not: as
			// RGBA the encoder takes its fast path instead of one
			// allocation per pixel.
			img = &image.RGBA{Pix: n.Pix, Stride: n.Stride, Rect: n.Rect}
		}
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: UploadJPEGQuality})
	case "image/png":
		ext = ".png"
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img)
	case "image/gif":
		ext = ".gif"
		err = imaging.Encode(&buf, img, imaging.GIF)
	default:
		err = fmt.Errorf("media: cannot encode %s", format)
	}
	if err != nil {
		return nil, "", "", fmt.Errorf("media: encode: %w", err)
	}
	return buf.Bytes(), format, ext, nil
}

// Get reads one attachment.
func (l *Library) Get(ctx context.Context, id int64) (*Attachment, error) {
	return l.Store.Attachment(ctx, id)
}

// List lists attachments newest first, with the total matching.
func (l *Library) List(ctx context.Context, q Query) ([]Attachment, int, error) {
	q.Search = strings.TrimSpace(q.Search)
	if len(q.Search) > 200 {
		return nil, 0, &FieldError{"search", "The search is at most 200 characters."}
	}
	return l.Store.Attachments(ctx, q)
}

// Edit is a change to an attachment's text; nil fields are kept.
type Edit struct {
	Title, Alt, Caption *string
}

// Update changes an attachment's title, alt text or caption.
func (l *Library) Update(ctx context.Context, id int64, e Edit) (*Attachment, error) {
	a, err := l.Store.Attachment(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		v    *string
		dst  *string
		name string
		max  int
		what string
	}{{e.Title, &a.Title, "title", 200, "The title"}, {e.Alt, &a.Alt, "alt_text", 500, "The alt text"}, {e.Caption, &a.Caption, "caption", 1000, "The caption"}} {
		if f.v == nil {
			continue
		}
		v := strings.TrimSpace(*f.v)
		if !utf8.ValidString(v) || utf8.RuneCountInString(v) > f.max {
			return nil, &FieldError{f.name, fmt.Sprintf("%s is at most %d characters.", f.what, f.max)}
		}
		*f.dst = v
	}
	if err := l.Store.UpdateAttachment(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// Delete removes an attachment and its files; products showing it lose it.
func (l *Library) Delete(ctx context.Context, id int64) (*Attachment, error) {
	a, err := l.Store.Attachment(ctx, id)
	if err != nil {
		return nil, err
	}
	return a, l.Store.DeleteAttachment(ctx, id)
}

// slugOf is a file name's stem reduced to lower-case letters, digits and
// dashes.
func slugOf(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.TrimSuffix(name, path.Ext(name))
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		return "image"
	}
	return s
}

// titleOf is WordPress's default title: the file name without extension.
// Control and format characters and line or paragraph separators (a
// tab, NUL, U+2028, a right-to-left override) become spaces.
func titleOf(name string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.TrimSuffix(name, path.Ext(name))
	if !utf8.ValidString(name) {
		return "image"
	}
	name = strings.Join(strings.FieldsFunc(name, func(r rune) bool {
		return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Zs)
	}), " ")
	if name == "" || name == "." || name == ".." {
		return "image"
	}
	if utf8.RuneCountInString(name) > 200 {
		name = string([]rune(name)[:200])
	}
	return name
}

// File reads a stored file by its path under /media/ (generated,
// imported or uploaded): catalog.ErrNotFound when there is none.
func (l *Library) File(ctx context.Context, path string) (*catalog.MediaFile, error) {
	return l.Store.Media(ctx, path)
}
