package storefront

import (
	"bytes"
	"compress/gzip"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// The build's compressed copies (web/compress-assets.mjs) are sent as
// they are; a file without them is compressed at start; the copies are
// never assets of their own.
func TestLoadAssetsTakesTheBuildsCompression(t *testing.T) {
	js := bytes.Repeat([]byte("console.log('vitrine');\n"), 200)
	var br, gz bytes.Buffer
	bw := brotli.NewWriterLevel(&br, 11)
	_, _ = bw.Write(js)
	_ = bw.Close()
	gw, _ := gzip.NewWriterLevel(&gz, 9)
	_, _ = gw.Write(js)
	_ = gw.Close()
	files, err := loadAssets(fstest.MapFS{
		"assets/entry-abc.js":      {Data: js},
		"assets/entry-abc.js.br":   {Data: br.Bytes()},
		"assets/entry-abc.js.gz":   {Data: gz.Bytes()},
		"assets/main-def.css":      {Data: bytes.Repeat([]byte("a{color:red}\n"), 100)},
		"assets/only-br-ghi.js":    {Data: js},
		"assets/only-br-ghi.js.br": {Data: []byte("not brotli")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("assets: %d, want 3 (the .br and .gz copies are not assets)", len(files))
	}
	e := files["/assets/entry-abc.js"].page
	if !bytes.Equal(e.Brotli, br.Bytes()) || !bytes.Equal(e.Gzip, gz.Bytes()) || !bytes.Equal(e.HTML, js) {
		t.Error("the build's compressed copies were not taken as they are")
	}
	if e.ETag == "" || files["/assets/entry-abc.js"].contentType != "text/javascript; charset=utf-8" {
		t.Errorf("etag %q, type %q", e.ETag, files["/assets/entry-abc.js"].contentType)
	}
	for _, p := range []string{"/assets/main-def.css", "/assets/only-br-ghi.js"} {
		pg := files[p].page
		got, err := gunzip(pg.Gzip)
		if err != nil || !bytes.Equal(got, pg.HTML) || len(pg.Brotli) == 0 || bytes.Equal(pg.Brotli, []byte("not brotli")) {
			t.Errorf("%s: not compressed at start from its source (%v)", p, err)
		}
	}
}

func gunzip(b []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	_, err = out.ReadFrom(r)
	return out.Bytes(), err
}
