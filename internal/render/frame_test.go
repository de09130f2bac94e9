package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestFrames: requests and answers survive the codec; a length over
// MaxFrame is refused before anything is allocated or written; a stream cut
// inside a frame is ErrUnexpectedEOF, between frames io.EOF; a request
// without its NUL and an unknown status are errors.
func TestFrames(t *testing.T) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := writeRequest(w, "/product/a/", []byte(`{"x":"\u0000"}`)); err != nil {
		t.Fatal(err)
	}
	if err := writeFrame(w, []byte{answerOK}, []byte("<p>hi</p>")); err != nil {
		t.Fatal(err)
	}
	if err := writeFrame(w, []byte{answerError}, []byte("boom")); err != nil {
		t.Fatal(err)
	}
	r := bytes.NewReader(buf.Bytes())
	body, err := readFrame(r)
	if err != nil {
		t.Fatal(err)
	}
	if url, data, err := parseRequest(body); err != nil || url != "/product/a/" || string(data) != `{"x":"\u0000"}` {
		t.Errorf("request: %q %q %v", url, data, err)
	}
	if body, err = readFrame(r); err != nil {
		t.Fatal(err)
	}
	if html, err := parseAnswer(body); err != nil || html != "<p>hi</p>" {
		t.Errorf("ok answer: %q %v", html, err)
	}
	if body, err = readFrame(r); err != nil {
		t.Fatal(err)
	}
	var we *WorkerError
	if _, err := parseAnswer(body); !errors.As(err, &we) || we.Msg != "boom" {
		t.Errorf("error answer: %v", err)
	}
	if _, err := readFrame(r); err != io.EOF {
		t.Errorf("end between frames: %v", err)
	}

	var head [4]byte
	binary.BigEndian.PutUint32(head[:], MaxFrame+1)
	if _, err := readFrame(bytes.NewReader(head[:])); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("length over MaxFrame: %v", err)
	}
	binary.BigEndian.PutUint32(head[:], 0xffffffff)
	if _, err := readFrame(bytes.NewReader(append(head[:], 1, 2, 3))); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("length 4 GiB: %v", err)
	}
	binary.BigEndian.PutUint32(head[:], 10)
	if _, err := readFrame(bytes.NewReader(append(head[:], "abc"...))); err != io.ErrUnexpectedEOF {
		t.Errorf("cut inside a body: %v", err)
	}
	if _, err := readFrame(bytes.NewReader(head[:2])); err != io.ErrUnexpectedEOF {
		t.Errorf("cut inside a length: %v", err)
	}
	var out bytes.Buffer
	if err := writeFrame(bufio.NewWriter(&out), make([]byte, MaxFrame), []byte{0}); !errors.Is(err, ErrFrameTooLarge) || out.Len() != 0 {
		t.Errorf("writing over MaxFrame: %v, %d bytes written", err, out.Len())
	}
	if err := writeRequest(bufio.NewWriter(&out), "/a\x00b", nil); err == nil || out.Len() != 0 {
		t.Errorf("URL with a NUL: %v, %d bytes written", err, out.Len())
	}
	if _, _, err := parseRequest([]byte("/no-nul")); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("request without NUL: %v", err)
	}
	for _, b := range [][]byte{{}, {2, 'x'}} {
		if _, err := parseAnswer(b); err == nil {
			t.Errorf("answer %q accepted", b)
		}
	}
}

// FuzzReadFrame: any input either reads as a frame that writes back to the
// same bytes, or is an error; never a body over MaxFrame.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte{0, 0, 0, 3, 'a', 0, 'b'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0, 0, 1})
	f.Fuzz(func(t *testing.T, in []byte) {
		body, err := readFrame(bytes.NewReader(in))
		if err != nil {
			return
		}
		if len(body) > MaxFrame {
			t.Fatalf("body of %d bytes", len(body))
		}
		var out bytes.Buffer
		if err := writeFrame(bufio.NewWriter(&out), body); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), in[:4+len(body)]) {
			t.Fatalf("round trip: %x != %x", out.Bytes(), in[:4+len(body)])
		}
		if url, data, err := parseRequest(body); err == nil && (strings.Contains(url, "\x00") || len(url)+1+len(data) != len(body)) {
			t.Fatalf("request %q %q from %q", url, data, body)
		}
	})
}
