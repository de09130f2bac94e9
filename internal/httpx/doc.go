// Package httpx is what every HTTP surface of the shop needs and nothing
// more: the request's viewer, cart sessions and their cookies, tokens and
// nonces, the REST and wc-ajax answer shapes, query parameter checks, and
// writing a rendered page as the client accepts it. It holds no shop state
// of its own: the composition (internal/server) configures it and hands it
// to the surfaces.
package httpx
