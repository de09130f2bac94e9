// Package web embeds the built React app: the browser bundle served under
// /assets/ and the server bundle the Go server renders pages with. Run the
// web build (make web) before compiling Go.
package web

import (
	"embed"
	"io/fs"
)

// all: keeps files whose names start with "_" or ".", such as Vite's
// .vite/manifest.json.
//
//go:embed all:dist
var dist embed.FS

// Client is the browser build (index of /assets/ and the Vite manifest).
func Client() (fs.FS, error) { return fs.Sub(dist, "dist/client") }

// ServerBundle is the server-side rendering bundle, which defines
// globalThis.render(url, json).
func ServerBundle() (string, error) {
	b, err := fs.ReadFile(dist, "dist/server/server.js")
	return string(b), err
}
