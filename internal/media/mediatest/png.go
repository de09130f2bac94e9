// Package mediatest makes images for the tests of uploads: files that are
// small on the wire and large once decoded.
package mediatest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// PNG16 is a valid PNG of w×h pixels of 16-bit RGBA (8 bytes a pixel
// decoded), all transparent black: its rows compress to about a
// thousandth, so 40 megapixels (320 MB decoded) take some 300 KB. It is
// written row by row: making it never holds the pixels.
func PNG16(w, h int) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, 16, 6, 0, 0, 0) // 16-bit, RGBA, deflate, no filter method, no interlace
	chunk(&out, "IHDR", ihdr)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	row := make([]byte, 1+8*w) // filter byte 0, then the pixels
	for range h {
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	chunk(&out, "IDAT", z.Bytes())
	chunk(&out, "IEND", nil)
	return out.Bytes()
}

func chunk(out *bytes.Buffer, kind string, data []byte) {
	_ = binary.Write(out, binary.BigEndian, uint32(len(data)))
	body := append([]byte(kind), data...)
	out.Write(body)
	_ = binary.Write(out, binary.BigEndian, crc32.ChecksumIEEE(body))
}
