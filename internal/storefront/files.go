package storefront

import (
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/httpx"
	"vitrine/internal/render"
)

// asset is a built file held in memory, compressed once at start.
type asset struct {
	contentType string
	page        *render.Page
}

// loadAssets reads the built app into memory. The build compresses its
// text assets at the densest settings and writes them beside each file
// (web/compress-assets.mjs: name.br, name.gz); those are sent as they are.
// A file the build did not compress is compressed here, once. Vite names
// files by content hash, so they are cached for a year and never
// revalidated.
func loadAssets(static fs.FS) (map[string]asset, error) {
	out := map[string]asset{}
	if static == nil {
		return out, nil
	}
	err := fs.WalkDir(static, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return err
		}
		data, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = http.DetectContentType(data)
		}
		page := render.NewPageUncompressed(http.StatusOK, data, nil)
		page.Brotli, _ = fs.ReadFile(static, p+".br")
		page.Gzip, _ = fs.ReadFile(static, p+".gz")
		if page.Brotli == nil || page.Gzip == nil {
			page.Brotli, page.Gzip = nil, nil
			page.Compress()
		}
		out["/"+p] = asset{contentType: ct, page: page}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	return out, err
}

// Asset answers a built file under /assets/ from memory.
func (f *Storefront) Asset(w http.ResponseWriter, r *http.Request) {
	a, ok := f.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("Content-Type", a.contentType)
	httpx.WriteBody(w, r, a.page)
}

// Media serves stored images (generated or imported) through the media
// library.
// Their paths never change content, so they are cacheable for a day.
func (f *Storefront) Media(w http.ResponseWriter, r *http.Request) {
	p := r.PathValue("path")
	if p == "" || strings.Contains(p, "..") {
		http.NotFound(w, r)
		return
	}
	m, err := f.d.Media.File(r.Context(), p)
	if errors.Is(err, catalog.ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		f.d.Log.Error("media", "path", p, "err", err)
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	// Stored types are checked at import; never let a browser guess.
	h.Set("Content-Type", m.ContentType)
	h.Set("Cache-Control", "public, max-age=86400")
	if m.ContentType == "image/svg+xml" {
		// An SVG opened on its own must not run anything.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	} else {
		// Nothing stored here is a document (the media library's
		// uploads are images encoded again from their pixels): opened on
		// its own, a file is shown as an image and nothing else.
		h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; sandbox")
	}
	http.ServeContent(w, r, "", time.Time{}, strings.NewReader(string(m.Data)))
}

const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1f3a5f"/><path d="M18 20h8l6 20 6-20h8L36 46h-8z" fill="#fff"/></svg>`

// Favicon answers /favicon.svg, the shop's mark.
func (f *Storefront) Favicon(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "public, max-age=604800")
	_, _ = w.Write([]byte(favicon))
}

// Robots answers /robots.txt: the per-visitor and search pages are not
// crawled; the sitemap index is named.
func (f *Storefront) Robots(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("User-agent: *\nDisallow: /wp-admin/\nDisallow: /cart/\nDisallow: /checkout/\nDisallow: /*?s=\nDisallow: /*add-to-cart=*\n\nSitemap: " + f.d.BaseURL + "/sitemap.xml\n"))
}
