package seed

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// Views of a product picture. Each has its own backdrop and composition so
// a gallery does not look like four copies of one file.
const (
	viewFront  = iota // the item centred on a warm grey sweep
	viewBack          // garments from behind; other items mirrored
	viewDetail        // a close-up of one feature
	viewFlat          // a slightly turned flat lay on a sage backdrop
)

// Garment kinds the generator can draw.
const (
	kindTee        = "tee"
	kindPocketTee  = "tee-pocket"
	kindBreton     = "tee-breton"
	kindTank       = "tank"
	kindLongSleeve = "longsleeve"
	kindShirt      = "shirt"
	kindSweater    = "sweater"
	kindHoodie     = "hoodie"
	kindTrousers   = "trousers"
	kindShorts     = "shorts"
	kindCap        = "cap"
	kindBucket     = "bucket"
	kindBeanie     = "beanie"
	kindPomBeanie  = "beanie-pom"
	kindTote       = "tote"
	kindPouch      = "pouch"
	kindScarf      = "scarf"
	kindBandana    = "bandana"
	kindSocks      = "socks"
	kindGiftCard   = "giftcard"
	kindPrint      = "print"
)

// garments have a distinct back; other kinds are mirrored for viewBack.
var garments = map[string]bool{
	kindTee: true, kindPocketTee: true, kindBreton: true, kindTank: true, kindLongSleeve: true, kindShirt: true,
	kindSweater: true, kindHoodie: true, kindTrousers: true, kindShorts: true, kindGiftCard: true,
}

// detailFocus is the point each kind's close-up centres on.
var detailFocus = map[string][2]int{
	kindTee: {600, 320}, kindBreton: {600, 320}, kindPocketTee: {690, 470}, kindTank: {600, 320}, kindLongSleeve: {600, 330},
	kindShirt: {600, 360}, kindSweater: {600, 880}, kindHoodie: {600, 330}, kindTrousers: {600, 330},
	kindShorts: {600, 330}, kindCap: {600, 520}, kindBucket: {600, 640}, kindBeanie: {600, 760},
	kindPomBeanie: {600, 360}, kindTote: {600, 560}, kindPouch: {780, 560}, kindScarf: {600, 860},
	kindBandana: {600, 600}, kindSocks: {620, 720}, kindGiftCard: {470, 520}, kindPrint: {600, 520},
}

// fits enlarge small items so they fill the frame like a real product shot:
// the item's centre, scale, and where the centre lands.
var fits = map[string]struct{ cx, cy, s, tx, ty float64 }{
	kindCap:       {670, 540, 1.15, 600, 720},
	kindBucket:    {600, 578, 1.25, 600, 700},
	kindBeanie:    {600, 595, 1.2, 600, 640},
	kindPomBeanie: {600, 544, 1.15, 600, 600},
	kindPouch:     {600, 690, 1.3, 600, 720},
}

// backdrops per view: top and bottom of the wall gradient.
var backdrops = [...][2]string{
	viewFront:  {"#f7f5f1", "#e7e2da"},
	viewBack:   {"#f4f6f7", "#e1e6e9"},
	viewDetail: {"#f8f2eb", "#eaded1"},
	viewFlat:   {"#eff3ed", "#dde5da"},
}

// picture describes one generated product picture.
type picture struct {
	Kind  string
	Color string // "#1f3a5f"
	View  int
	Title string // also the image's alt text
	Label string // text printed on gift cards
}

type rgb struct{ r, g, b float64 }

func parseHex(s string) rgb {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil || len(strings.TrimPrefix(s, "#")) != 6 {
		return rgb{128, 128, 128}
	}
	return rgb{float64(v >> 16 & 0xff), float64(v >> 8 & 0xff), float64(v & 0xff)}
}

func (c rgb) mix(o rgb, t float64) rgb {
	return rgb{c.r + (o.r-c.r)*t, c.g + (o.g-c.g)*t, c.b + (o.b-c.b)*t}
}

func (c rgb) hex() string {
	clamp := func(f float64) int { return max(0, min(255, int(f+0.5))) }
	return fmt.Sprintf("#%02x%02x%02x", clamp(c.r), clamp(c.g), clamp(c.b))
}

func (c rgb) luma() float64 { return (0.2126*c.r + 0.7152*c.g + 0.0722*c.b) / 255 }

// palette is the item colour with a shade for seams and a light accent.
type palette struct{ main, dark, light, ink string }

func paletteOf(hex string) palette {
	c := parseHex(hex)
	white, black := rgb{255, 255, 255}, rgb{0, 0, 0}
	p := palette{main: c.hex(), light: c.mix(white, 0.45).hex(), ink: "#1d1d1f"}
	if c.luma() < 0.18 {
		// On near-black cloth a darker seam would vanish; lift it instead.
		p.dark = c.mix(white, 0.22).hex()
		p.ink = "#f7f5f1"
	} else {
		p.dark = c.mix(black, 0.24).hex()
	}
	if c.luma() < 0.45 {
		p.ink = "#f7f5f1"
	}
	return p
}

// renderSVG draws a clean product shot: a soft backdrop, a floor shadow and
// a flat illustration of the item. The result is small, self-contained XML
// (no fonts, images or links), safe to serve under a strict CSP.
func renderSVG(pic picture) []byte {
	var b strings.Builder
	b.Grow(4096)
	bg := backdrops[pic.View%len(backdrops)]
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1200 1200" role="img"><title>`)
	_ = xml.EscapeText(&b, []byte(pic.Title))
	fmt.Fprintf(&b, `</title><defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="%s"/><stop offset=".78" stop-color="%s"/><stop offset="1" stop-color="%s"/></linearGradient>`,
		bg[0], bg[1], parseHex(bg[1]).mix(rgb{0, 0, 0}, 0.03).hex())
	b.WriteString(`<radialGradient id="sh"><stop offset="0" stop-color="#000" stop-opacity=".2"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient></defs>`)
	b.WriteString(`<rect width="1200" height="1200" fill="url(#bg)"/>`)

	transform := ""
	switch pic.View {
	case viewBack:
		if !garments[pic.Kind] {
			transform = "translate(1200 0) scale(-1 1)"
		}
	case viewDetail:
		f := detailFocus[pic.Kind]
		fx, fy := float64(f[0]), float64(f[1])
		if fit, ok := fits[pic.Kind]; ok {
			fx, fy = fit.tx+fit.s*(fx-fit.cx), fit.ty+fit.s*(fy-fit.cy)
		}
		transform = fmt.Sprintf("translate(600 600) scale(1.9) translate(%g %g)", -fx, -fy)
	case viewFlat:
		transform = "rotate(-7 600 600) translate(60 40) scale(.88)"
	}
	if pic.View != viewDetail {
		b.WriteString(`<ellipse cx="600" cy="1010" rx="360" ry="36" fill="url(#sh)"/>`)
	}
	p := paletteOf(pic.Color)
	fmt.Fprintf(&b, `<g stroke-linejoin="round" stroke-linecap="round" stroke="%s" stroke-width="5"`, p.dark)
	if transform != "" {
		fmt.Fprintf(&b, ` transform="%s"`, transform)
	}
	b.WriteString(`>`)
	if fit, ok := fits[pic.Kind]; ok {
		fmt.Fprintf(&b, `<g transform="translate(%g %g) scale(%g) translate(%g %g)">`, fit.tx, fit.ty, fit.s, -fit.cx, -fit.cy)
		drawItem(&b, pic, p, pic.View == viewBack)
		b.WriteString(`</g>`)
	} else {
		drawItem(&b, pic, p, pic.View == viewBack)
	}
	b.WriteString(`</g></svg>`)
	return []byte(b.String())
}

// Shapes share the group's stroke (the seam shade); these helpers keep the
// templates below readable.
func fill(b *strings.Builder, d, color string) {
	fmt.Fprintf(b, `<path d="%s" fill="%s"/>`, d, color)
}

func line(b *strings.Builder, d string, width float64, opacity string) {
	fmt.Fprintf(b, `<path d="%s" fill="none" stroke-width="%g"`, d, width)
	if opacity != "" {
		fmt.Fprintf(b, ` opacity="%s"`, opacity)
	}
	b.WriteString(`/>`)
}

// ribs is a run of short vertical lines, the knit of a cuff or waistband.
func ribs(b *strings.Builder, x0, x1, step, y, h int) {
	var d strings.Builder
	for x := x0; x <= x1; x += step {
		fmt.Fprintf(&d, "M%d %dv%d", x, y, h)
	}
	line(b, d.String(), 3, ".55")
}

const longSleeveBody = "L810 290Q900 350 925 520L965 870L885 885L800 480L800 960L400 960L400 480L315 885L235 870L275 520Q300 350 390 290Z"

func drawItem(b *strings.Builder, pic picture, p palette, back bool) {
	switch pic.Kind {
	case kindTee, kindPocketTee, kindBreton:
		neck := 305
		if back {
			neck = 262
		}
		body := fmt.Sprintf("M510 240Q600 %d 690 240L800 275L950 430L870 500L790 440L790 960Q600 972 410 960L410 440L330 500L250 430L400 275Z", neck)
		fill(b, body, p.main)
		if pic.Kind == kindBreton {
			// Navy stripes, clipped to the shirt.
			var d strings.Builder
			for y := 360; y < 960; y += 56 {
				fmt.Fprintf(&d, "M200 %dH1000v20H200Z", y)
			}
			fmt.Fprintf(b, `<clipPath id="body"><path d="%s"/></clipPath><path d="%s" fill="#1f3a5f" stroke="none" clip-path="url(#body)"/>`, body, d.String())
		}
		if !back {
			line(b, "M522 246Q600 266 678 246", 6, ".6")
		}
		line(b, fmt.Sprintf("M510 240Q600 %d 690 240", neck), 16, "")
		line(b, "M935 414L855 484M265 414L345 484M412 932Q600 944 788 932", 5, "")
		line(b, "M470 520Q500 720 480 900M735 560Q715 700 728 880", 4, ".3")
		if pic.Kind == kindPocketTee && !back {
			fill(b, "M640 420H740V510Q690 530 640 510Z", p.main)
			line(b, "M640 436H740", 4, ".7")
		}
	case kindTank:
		neck := 360
		if back {
			neck = 290
		}
		fill(b, fmt.Sprintf("M500 230Q600 %d 700 230L735 230Q745 380 800 450L800 960Q600 972 400 960L400 450Q455 380 465 230Z", neck), p.main)
		line(b, fmt.Sprintf("M500 230Q600 %d 700 230M735 230Q745 380 800 450M465 230Q455 380 400 450", neck), 12, "")
		line(b, "M402 932Q600 944 798 932", 5, "")
	case kindLongSleeve, kindShirt, kindSweater, kindHoodie:
		neck := 320
		if back || pic.Kind == kindShirt {
			neck = 272
		}
		if pic.Kind == kindHoodie && !back {
			fill(b, "M455 330Q440 160 600 150Q760 160 745 330Z", p.main)
		}
		fill(b, fmt.Sprintf("M520 250Q600 %d 680 250", neck)+longSleeveBody, p.main)
		line(b, "M960 840L882 855M240 840L318 855M402 915H798", 5, "")
		line(b, "M470 540Q490 720 475 900M730 560Q712 720 726 900", 4, ".3")
		switch pic.Kind {
		case kindSweater:
			line(b, fmt.Sprintf("M520 250Q600 %d 680 250", neck), 24, "")
			ribs(b, 418, 782, 22, 920, 36)
			ribs(b, 246, 312, 16, 856, 24)
			ribs(b, 888, 954, 16, 856, 24)
			if !back {
				line(b, "M570 360q34 40 0 80t0 80t0 80t0 80t0 80t0 80M630 360q-34 40 0 80t0 80t0 80t0 80t0 80t0 80", 7, ".55")
			}
		case kindShirt:
			if back {
				line(b, "M395 340Q600 365 805 340", 5, "")
				break
			}
			fill(b, "M520 250L565 340L600 272L635 340L680 250Q600 232 520 250Z", p.main)
			line(b, "M600 272V960", 5, "")
			for y := 380; y <= 880; y += 100 {
				fmt.Fprintf(b, `<circle cx="618" cy="%d" r="9" fill="%s"/>`, y, p.light)
			}
			fill(b, "M660 420H750V520Q705 536 660 520Z", p.main)
		case kindHoodie:
			if back {
				fill(b, "M465 255Q455 480 600 530Q745 480 735 255Q600 300 465 255Z", p.main)
				line(b, "M600 290V526", 4, ".5")
				break
			}
			fill(b, "M515 305Q520 215 600 208Q680 215 685 305Q600 345 515 305Z", p.dark)
			fmt.Fprintf(b, `<path d="M565 330L552 480M635 330L648 480" fill="none" stroke="%s" stroke-width="8"/>`, p.light)
			line(b, "M470 690H730L770 880H430Z", 5, "")
			line(b, "M470 690L430 800M730 690L770 800", 4, ".6")
		default:
			line(b, fmt.Sprintf("M520 250Q600 %d 680 250", neck), 14, "")
		}
	case kindTrousers, kindShorts:
		legs := "M420 285H780L830 965H650L600 480L550 965H370Z"
		hem := "M374 932H548M652 932H827"
		if pic.Kind == kindShorts {
			legs, hem = "M420 285H780L820 640H630L600 480L570 640H380Z", "M382 612H568M632 612H818"
		}
		fill(b, legs, p.main)
		fill(b, "M420 230H780V285H420Z", p.main)
		line(b, hem, 5, "")
		line(b, "M460 222v70M600 222v70M740 222v70", 12, "")
		if back {
			line(b, "M455 340H565V430L510 450L455 430ZM635 340H745V430L690 450L635 430Z", 5, "")
		} else {
			line(b, "M600 285V430Q600 455 575 462", 5, "")
			line(b, "M432 292Q500 300 525 380M768 292Q700 300 675 380", 5, "")
		}
		if pic.Kind == kindTrousers {
			line(b, "M500 520Q515 700 500 900M700 520Q685 700 700 900", 4, ".3")
		}
	case kindCap:
		fill(b, "M330 660Q320 400 590 380Q820 390 830 660Z", p.main)
		fill(b, "M800 640Q930 610 1020 662Q1000 712 800 700Z", p.dark)
		line(b, "M590 382Q520 500 500 660M590 382Q660 500 690 660", 4, ".6")
		line(b, "M330 660H830", 10, "")
		fmt.Fprintf(b, `<circle cx="590" cy="380" r="15" fill="%s"/><circle cx="470" cy="470" r="7" fill="%s"/>`, p.dark, p.dark)
	case kindBucket:
		fill(b, "M420 650L450 420Q600 380 750 420L780 650Z", p.main)
		fill(b, "M300 700Q600 600 900 700Q925 760 880 775Q600 700 320 775Q275 760 300 700Z", p.main)
		line(b, "M430 610Q600 590 770 610", 5, ".6")
		line(b, "M440 470Q600 440 760 470", 4, ".4")
	case kindBeanie, kindPomBeanie:
		fill(b, "M370 760Q360 350 600 330Q840 350 830 760Z", p.main)
		line(b, "M480 370Q450 560 460 700M600 332V700M720 370Q750 560 740 700", 4, ".45")
		fill(b, "M350 690H850V840Q600 862 350 840Z", p.main)
		ribs(b, 372, 830, 24, 702, 128)
		if pic.Kind == kindPomBeanie {
			fmt.Fprintf(b, `<circle cx="600" cy="300" r="72" fill="%s"/>`, p.light)
		}
	case kindTote:
		line(b, "M480 450Q480 230 600 230Q720 230 720 450", 30, "")
		fmt.Fprintf(b, `<path d="M480 450Q480 230 600 230Q720 230 720 450" fill="none" stroke="%s" stroke-width="18"/>`, p.main)
		fill(b, "M380 440H820L842 960H358Z", p.main)
		line(b, "M382 490H818", 5, ".7")
		fill(b, "M560 560H640V610H560Z", p.light)
	case kindPouch:
		fill(b, "M360 500H840Q860 500 858 522L840 860Q838 880 818 880H382Q362 880 360 860L342 522Q340 500 360 500Z", p.main)
		fmt.Fprintf(b, `<path d="M362 545H838" fill="none" stroke-width="6" stroke-dasharray="8 8"/>`)
		fill(b, "M780 535H812V600H780Z", p.light)
		line(b, "M420 700Q600 720 780 700", 4, ".3")
	case kindScarf:
		fill(b, "M470 280H590L565 930H445Z", p.main)
		fill(b, "M610 280H730L765 870H645Z", p.main)
		fill(b, "M450 300Q600 200 750 300Q760 365 600 385Q440 365 450 300Z", p.main)
		fill(b, "M455 800H570L568 840H453ZM650 760H758L760 800H652Z", p.dark)
		var d strings.Builder
		for x := 452; x <= 560; x += 14 {
			fmt.Fprintf(&d, "M%d 932v34", x)
		}
		for x := 652; x <= 760; x += 14 {
			fmt.Fprintf(&d, "M%d 872v34", x)
		}
		line(b, d.String(), 4, "")
	case kindBandana:
		fill(b, "M600 240L960 600L600 960L240 600Z", p.main)
		line(b, "M600 290L910 600L600 910L290 600Z", 5, ".7")
		for i, xy := range [][2]int{{600, 420}, {470, 600}, {730, 600}, {600, 780}, {535, 510}, {665, 510}, {535, 690}, {665, 690}} {
			r := 22
			if i >= 4 {
				r = 12
			}
			fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="none"/>`, xy[0], xy[1], r, p.light)
		}
	case kindSocks:
		for i, t := range []string{"translate(300 250)", "translate(480 290)"} {
			fmt.Fprintf(b, `<g transform="%s">`, t)
			body := p.main
			if i == 0 {
				body = paletteOf(p.main).dark
			}
			fill(b, "M0 0H140V430Q140 480 190 500L330 555Q385 580 362 632Q340 672 280 652L60 575Q0 555 0 480Z", body)
			fill(b, "M0 0H140V80H0Z", body)
			ribs(b, 14, 126, 16, 8, 64)
			fill(b, "M300 548Q385 575 362 632Q340 672 280 652Z", p.light)
			fill(b, "M0 470Q0 555 60 575L80 505Q36 490 40 440Z", p.light)
			b.WriteString(`</g>`)
		}
	case kindGiftCard:
		b.WriteString(`<g transform="rotate(-6 600 620)">`)
		fill(b, "M286 400H914Q950 400 950 436V804Q950 840 914 840H286Q250 840 250 804V436Q250 400 286 400Z", p.main)
		if back {
			fmt.Fprintf(b, `<path d="M250 470H950V540H250Z" fill="%s" stroke="none"/>`, p.ink)
			line(b, "M310 640H700M310 700H620M310 760H540", 8, ".5")
		} else {
			fmt.Fprintf(b, `<path d="M250 580H950V628H250ZM760 400H808V840H760Z" fill="%s" stroke="none"/>`, p.light)
			fill(b, "M784 604Q700 520 716 500Q740 480 784 604Q828 480 852 500Q868 520 784 604Z", p.light)
			fmt.Fprintf(b, `<g stroke="none" fill="%s" font-family="Helvetica,Arial,sans-serif" font-weight="700"><text x="300" y="500" font-size="52">Vitrine</text><text x="300" y="790" font-size="96">`, p.ink)
			_ = xml.EscapeText(b, []byte(pic.Label))
			b.WriteString(`</text></g>`)
		}
		b.WriteString(`</g>`)
	case kindPrint:
		b.WriteString(`<path d="M330 180H870V910H330Z" fill="#2e2a26" stroke="none"/><path d="M358 208H842V882H358Z" fill="#fbfaf7" stroke="none"/>`)
		fmt.Fprintf(b, `<path d="M410 260H790V760H410Z" fill="%s" stroke="none"/>`, parseHex(p.main).mix(rgb{255, 255, 255}, 0.78).hex())
		fmt.Fprintf(b, `<circle cx="660" cy="400" r="70" fill="%s" stroke="none"/>`, p.main)
		fmt.Fprintf(b, `<path d="M410 640Q500 560 580 620T790 600V760H410Z" fill="%s" stroke="none"/><path d="M410 700Q520 650 620 700T790 690V760H410Z" fill="%s" stroke="none"/>`, p.light, p.dark)
		line(b, "M410 810H560", 4, ".6")
	default:
		fill(b, "M400 400H800V800H400Z", p.main)
	}
}
