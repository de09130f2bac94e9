package media

import (
	"context"
	"image"
	"image/color"
	"sync"

	"golang.org/x/sync/semaphore"
)

// Decoding memory. An image's pixels take width × height × the bytes of
// its colour model once decoded, whatever its file's size: a 311 KB PNG
// of 40 megapixels in 16-bit colour decodes to 320 MB. So the decoded
// size is computed from the header (image.DecodeConfig) before a pixel is
// decoded; an image over MaxDecodeBytes is refused, and decodes hold
// their decoded size from a shared Budget, so that concurrent ones never
// hold more than DecodeBudget together: beyond it they wait their turn.
const (
	// MaxDecodeBytes is the largest decoded size accepted for one image:
	// 40 megapixels of 8-bit RGBA (160 MB) pass, 16-bit colour passes up
	// to 24 megapixels.
	MaxDecodeBytes = 192 << 20
	// DecodeBudget bounds the decoded pixels held at once by every decode
	// of the process (uploads, their sizes, imported images).
	DecodeBudget = 256 << 20
)

// BytesPerPixel is what one pixel of the colour model takes decoded: 8
// for 16-bit RGBA, 4 for 8-bit RGBA and CMYK, 3 for YCbCr (its 4:4:4
// bound; subsampled JPEGs take less), 2 for 16-bit grey, 1 for 8-bit grey
// and palettes. A model it does not know counts as 8, the most any takes.
func BytesPerPixel(m color.Model) int64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	case color.YCbCrModel:
		return 3
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.GrayModel, color.AlphaModel:
		return 1
	}
	return 8
}

// DecodedBytes is the size of an image's pixels once decoded, from its
// header.
func DecodedBytes(cfg image.Config) int64 {
	return int64(max(cfg.Width, 0)) * int64(max(cfg.Height, 0)) * BytesPerPixel(cfg.ColorModel)
}

// Budget bounds the bytes that decodes hold at once: a weighted
// semaphore of its size, with the figures the tests read.
type Budget struct {
	size int64
	sem  *semaphore.Weighted

	mu               sync.Mutex
	held, peak       int64
	waiting, granted int
}

// NewBudget is a budget of size bytes.
func NewBudget(size int64) *Budget {
	return &Budget{size: size, sem: semaphore.NewWeighted(size)}
}

// sharedBudget is the process's DecodeBudget, taken by every Library
// without a Budget of its own and by Renditions.
var sharedBudget = NewBudget(DecodeBudget)

// Size is the budget's size in bytes.
func (b *Budget) Size() int64 { return b.size }

// Acquire waits until n bytes are free (or ctx ends) and holds them until
// release is called. n is taken as at least 1 and at most the budget's
// size: a decode as large as the whole budget runs alone.
func (b *Budget) Acquire(ctx context.Context, n int64) (release func(), err error) {
	n = min(max(n, 1), b.size)
	b.mu.Lock()
	b.waiting++
	b.mu.Unlock()
	err = b.sem.Acquire(ctx, n)
	b.mu.Lock()
	b.waiting--
	if err == nil {
		b.held += n
		b.peak = max(b.peak, b.held)
		b.granted++
	}
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.held -= n
			b.mu.Unlock()
			b.sem.Release(n)
		})
	}, nil
}

// BudgetStats are a budget's figures: bytes held now, the most ever held
// at once, callers waiting, and acquisitions granted.
type BudgetStats struct {
	Held, Peak       int64
	Waiting, Granted int
}

// Stats reads the budget's figures.
func (b *Budget) Stats() BudgetStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return BudgetStats{Held: b.held, Peak: b.peak, Waiting: b.waiting, Granted: b.granted}
}
