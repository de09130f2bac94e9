package media

import (
	"encoding/binary"
	"image"
)

// Orientation returns a JPEG's EXIF orientation (1–8; 1, the default, also
// when data is not a JPEG or has no valid orientation tag). Values 5–8 mean
// the stored pixels are turned a quarter turn from how they are displayed.
func Orientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return 1
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return 1
		}
		marker := data[i+1]
		if marker == 0xff { // fill byte
			i++
			continue
		}
		if marker == 0xda || marker == 0xd9 { // start of scan, end of image
			return 1
		}
		n := int(binary.BigEndian.Uint16(data[i+2 : i+4]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xe1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			return exifOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// exifOrientation reads tag 0x0112 from a TIFF structure's first IFD.
func exifOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	if bo.Uint16(t[2:4]) != 42 {
		return 1
	}
	ifd := int(bo.Uint32(t[4:8]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[ifd : ifd+2]))
	for k := range count {
		e := ifd + 2 + 12*k
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:e+2]) != 0x0112 {
			continue
		}
		if bo.Uint16(t[e+2:e+4]) != 3 { // SHORT
			return 1
		}
		if v := int(bo.Uint16(t[e+8 : e+10])); v >= 1 && v <= 8 {
			return v
		}
		return 1
	}
	return 1
}

func orientedSize(w, h, orient int) (int, int) {
	if orient >= 5 && orient <= 8 {
		return h, w
	}
	return w, h
}

// orientImage returns img as displayed under an EXIF orientation.
func orientImage(img *image.RGBA, orient int) *image.RGBA {
	if orient < 2 || orient > 8 {
		return img
	}
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	dw, dh := orientedSize(sw, sh, orient)
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		for x := range dw {
			var sx, sy int
			switch orient {
			case 2: // mirrored
				sx, sy = sw-1-x, y
			case 3: // rotated 180°
				sx, sy = sw-1-x, sh-1-y
			case 4: // mirrored vertically
				sx, sy = x, sh-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // needs a quarter turn clockwise
				sx, sy = y, sh-1-x
			case 7: // transversed
				sx, sy = sw-1-y, sh-1-x
			case 8: // needs a quarter turn anticlockwise
				sx, sy = sw-1-y, x
			}
			si := img.PixOffset(b.Min.X+sx, b.Min.Y+sy)
			di := dst.PixOffset(x, y)
			copy(dst.Pix[di:di+4], img.Pix[si:si+4])
		}
	}
	return dst
}
