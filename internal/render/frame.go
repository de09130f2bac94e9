package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The render worker protocol (vitrine render-worker, Workers): frames on the
// worker's stdin and stdout, each a 4-byte big-endian length and a body.
// A request body is the URL, a NUL byte and the page data (JSON); an answer
// body is a status byte (answerOK, then the app's HTML; answerError, then
// the render error's message). A worker's first answer, before any request,
// says whether it loaded the bundle (answerOK "ready", or answerError and
// why not).

// MaxFrame bounds a frame's body (a product page's data is ~35 kB, its HTML
// ~100 kB): a larger length is refused, not allocated.
const MaxFrame = 64 << 20

const (
	answerOK    byte = 0
	answerError byte = 1
	readyBody        = "ready"
)

// ErrFrameTooLarge is a frame whose length is over MaxFrame.
var ErrFrameTooLarge = errors.New("render worker: frame over 64 MiB")

// writeFrame writes one frame whose body is parts, one after the other.
func writeFrame(w *bufio.Writer, parts ...[]byte) error {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n > MaxFrame {
		return ErrFrameTooLarge
	}
	var head [4]byte
	binary.BigEndian.PutUint32(head[:], uint32(n))
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return w.Flush()
}

// readFrame reads one frame's body. A stream that ends between frames is
// io.EOF; one that ends inside a frame is io.ErrUnexpectedEOF.
func readFrame(r io.Reader) ([]byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > MaxFrame {
		return nil, ErrFrameTooLarge
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// writeRequest writes a render request for url with data.
func writeRequest(w *bufio.Writer, url string, data []byte) error {
	if i := bytes.IndexByte([]byte(url), 0); i >= 0 {
		return fmt.Errorf("render %q: a URL cannot hold a NUL byte", url)
	}
	return writeFrame(w, []byte(url), []byte{0}, data)
}

// parseRequest splits a request body into its URL and page data.
func parseRequest(body []byte) (string, []byte, error) {
	url, data, ok := bytes.Cut(body, []byte{0})
	if !ok {
		return "", nil, errors.New("render worker: a request is a URL, a NUL byte and the page data; no NUL byte")
	}
	return string(url), data, nil
}

// parseAnswer splits an answer body into the HTML or the render error.
func parseAnswer(body []byte) (string, error) {
	if len(body) == 0 {
		return "", errors.New("render worker: empty answer")
	}
	switch body[0] {
	case answerOK:
		return string(body[1:]), nil
	case answerError:
		return "", &WorkerError{Msg: string(body[1:])}
	}
	return "", fmt.Errorf("render worker: unknown answer status %d", body[0])
}

// WorkerError is a render that failed in a worker (the bundle threw, or the
// worker's engine interrupted it); the worker is fine and stays in use.
type WorkerError struct{ Msg string }

func (e *WorkerError) Error() string { return e.Msg }
