package media_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"runtime"
	"sync"
	"testing"

	"vitrine/internal/media"
	"vitrine/internal/media/mediatest"
	"vitrine/internal/storage/space"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestDecodedBytes(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want int64
	}{
		{"16-bit RGBA PNG", mediatest.PNG16(30, 20), 30 * 20 * 8},
		{"8-bit RGBA PNG", media.EncodePNG(t, media.WithAlpha(30, 20)), 30 * 20 * 4},
		{"JPEG", media.EncodeJPEG(t, media.Halves(30, 20)), 30 * 20 * 3},
		{"GIF", media.EncodeGIF(t, media.Halves(30, 20)), 30 * 20},
	} {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(c.data))
		if err != nil {
			t.Fatal(c.name, err)
		}
		if got := media.DecodedBytes(cfg); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	for m, want := range map[color.Model]int64{color.Gray16Model: 2, color.GrayModel: 1, color.CMYKModel: 4, color.NRGBA64Model: 8,
		color.ModelFunc(func(c color.Color) color.Color { return c }): 8} {
		if got := media.BytesPerPixel(m); got != want {
			t.Errorf("%v: %d, want %d", m, got, want)
		}
	}
}

// A PNG of 27 megapixels in 16-bit colour is some 200 KB on the wire and
// 216 MB decoded: it is refused from its header, before a pixel is
// decoded (the test allocates nowhere near its size), and stores nothing.
// The same dimensions in 8-bit colour are within the bound.
func TestLibraryRefusesLargeDecodedSize(t *testing.T) {
	bomb := mediatest.PNG16(6000, 4500)
	if len(bomb) > 1<<20 {
		t.Fatalf("the test image is %d bytes", len(bomb))
	}
	if _, err := media.Check(media.PNGHeader(6000, 4500)); err != nil {
		t.Fatalf("8-bit at the same size: %v", err)
	}
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		lib := &media.Library{Store: db}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := lib.Add(context.Background(), media.NewUpload{FileName: "bomb.png", Data: bomb})
		runtime.ReadMemStats(&after)
		if !errors.Is(err, media.ErrImageTooBig) {
			t.Fatalf("16-bit bomb: %v", err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
			t.Fatalf("refusing it allocated %d MB", n>>20)
		}
		if _, n, _ := lib.List(context.Background(), media.Query{}); n != 0 {
			t.Fatalf("stored %d", n)
		}
		if _, err := media.Renditions(bomb, "image/png", []int{300}); !errors.Is(err, media.ErrTooLarge) {
			t.Fatalf("renditions: %v", err)
		}
	})
}

// The budget's semaphore logic, step by step: weights add up to its size,
// a weight over it is taken as the whole budget (it runs alone), a
// release frees its weight once, and a caller that gives up waiting holds
// nothing.
func TestBudget(t *testing.T) {
	ctx := context.Background()
	b := media.NewBudget(100)
	r60, err := b.Acquire(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	r40, err := b.Acquire(ctx, 40)
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Stats(); s.Held != 100 || s.Peak != 100 || s.Granted != 2 {
		t.Fatalf("%+v", s)
	}
	// Full: a caller whose request ends while it waits gets nothing.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Acquire(gone, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("full budget: %v", err)
	}
	r40()
	r40() // a second release frees nothing more
	if s := b.Stats(); s.Held != 60 || s.Waiting != 0 {
		t.Fatalf("after a release: %+v", s)
	}
	// 1000 is taken as 100: it waits for the 60, then runs alone.
	done := make(chan func())
	go func() {
		r, err := b.Acquire(ctx, 1000)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	for b.Stats().Waiting != 1 {
		runtime.Gosched()
	}
	if s := b.Stats(); s.Held != 60 || s.Granted != 2 {
		t.Fatalf("while it waits: %+v", s)
	}
	r60()
	rAll := <-done
	if s := b.Stats(); s.Held != 100 || s.Peak != 100 {
		t.Fatalf("alone: %+v", s)
	}
	rAll()
	if s := b.Stats(); s.Held != 0 || s.Granted != 3 {
		t.Fatalf("at the end: %+v", s)
	}
}

// An upload holds its decoded size from the library's budget: with the
// budget taken it waits (nothing stored yet) and goes on once it is free;
// one that gives up waiting stores nothing.
func TestLibraryWaitsForTheBudget(t *testing.T) {
	db := storetest.Open(t, sqlstore.SQLite)
	ctx := context.Background()
	data := media.EncodeJPEG(t, media.Halves(40, 20))
	b := media.NewBudget(40 * 20 * 3) // one upload's decoded size
	lib := &media.Library{Store: db, Budget: b}
	hold, err := b.Acquire(ctx, b.Size())
	if err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := lib.Add(gone, media.NewUpload{FileName: "a.jpg", Data: data}); !errors.Is(err, context.Canceled) {
		t.Fatalf("gave up: %v", err)
	}
	errc := make(chan error)
	go func() {
		_, err := lib.Add(ctx, media.NewUpload{FileName: "a.jpg", Data: data})
		errc <- err
	}()
	for b.Stats().Waiting != 1 {
		runtime.Gosched()
	}
	if _, n, _ := lib.List(ctx, media.Query{}); n != 0 {
		t.Fatalf("stored %d while waiting", n)
	}
	hold()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if s := b.Stats(); s.Peak != b.Size() || s.Held != 0 || s.Granted != 2 {
		t.Fatalf("%+v", s)
	}
}

// Concurrent uploads never hold more than the budget: with room for two
// and a half, eight at once all succeed and the most held together is
// two uploads' worth.
func TestLibraryConcurrentDecodesStayInBudget(t *testing.T) {
	db := storetest.Open(t, sqlstore.SQLite)
	data := media.EncodeJPEG(t, media.Halves(400, 200))
	one := int64(400 * 200 * 3)
	b := media.NewBudget(one*2 + one/2)
	lib := &media.Library{Store: db, Budget: b}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := lib.Add(context.Background(), media.NewUpload{FileName: "a.jpg", Data: data}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if s := b.Stats(); s.Peak > 2*one || s.Peak < one || s.Granted != 8 || s.Held != 0 {
		t.Fatalf("%+v (one upload holds %d)", s, one)
	}
}

// The library's quota counts every stored file: an upload that would go
// over it is refused before it is decoded and stores nothing; the disk's
// floor refuses uploads too.
func TestLibraryQuota(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		data := media.EncodeJPEG(t, media.Halves(400, 200))
		lib := &media.Library{Store: db}
		if _, err := lib.Add(ctx, media.NewUpload{FileName: "a.jpg", Data: data}); err != nil {
			t.Fatal(err)
		}
		used, err := db.MediaBytes(ctx)
		if err != nil || used <= 0 {
			t.Fatalf("%d %v", used, err)
		}
		lib.Quota = used + int64(len(data)) - 1
		_, err = lib.Add(ctx, media.NewUpload{FileName: "b.jpg", Data: data})
		var qe *space.QuotaError
		if !errors.As(err, &qe) || qe.Used != used || qe.Size != int64(len(data)) {
			t.Fatalf("over the quota: %v", err)
		}
		if _, n, _ := lib.List(ctx, media.Query{}); n != 1 {
			t.Fatalf("%d stored", n)
		}
		if u, err := lib.Usage(ctx); err != nil || u.Used != used || u.Quota != lib.Quota {
			t.Fatalf("usage %+v %v", u, err)
		}
		lib.Quota = 0
		lib.Disk = &space.Disk{Dir: t.TempDir(), Floor: 1 << 62}
		if _, err := lib.Add(ctx, media.NewUpload{FileName: "b.jpg", Data: data}); !errors.Is(err, space.ErrDiskLow) {
			t.Fatalf("disk low: %v", err)
		}
		lib.Disk.Floor = 1
		if _, err := lib.Add(ctx, media.NewUpload{FileName: "b.jpg", Data: data}); err != nil {
			t.Fatal(err)
		}
	})
}
