package storeapi

import (
	"fmt"
	"html"
	"time"

	"vitrine/internal/catalog"
)

// VariationImage is the image block of a WooCommerce variation object.
type VariationImage struct {
	Title                string `json:"title"`
	Caption              string `json:"caption"`
	URL                  string `json:"url"`
	Alt                  string `json:"alt"`
	Src                  string `json:"src"`
	Srcset               string `json:"srcset"`
	Sizes                string `json:"sizes"`
	FullSrc              string `json:"full_src"`
	FullSrcW             int    `json:"full_src_w"`
	FullSrcH             int    `json:"full_src_h"`
	GalleryThumbnailSrc  string `json:"gallery_thumbnail_src"`
	GalleryThumbnailSrcW int    `json:"gallery_thumbnail_src_w"`
	GalleryThumbnailSrcH int    `json:"gallery_thumbnail_src_h"`
	ThumbSrc             string `json:"thumb_src"`
	ThumbSrcW            int    `json:"thumb_src_w"`
	ThumbSrcH            int    `json:"thumb_src_h"`
	SrcW                 int    `json:"src_w"`
	SrcH                 int    `json:"src_h"`
}

// Variation is the object get_variation answers and data-product_variations
// lists (spec section 3, protocol notes section 4).
type Variation struct {
	Attributes          map[string]string `json:"attributes"`
	AvailabilityHTML    string            `json:"availability_html"`
	BackordersAllowed   bool              `json:"backorders_allowed"`
	Dimensions          Dimensions        `json:"dimensions"`
	DimensionsHTML      string            `json:"dimensions_html"`
	DisplayPrice        float64           `json:"display_price"`
	DisplayRegularPrice float64           `json:"display_regular_price"`
	Image               VariationImage    `json:"image"`
	ImageID             int64             `json:"image_id"`
	ImageLink           string            `json:"image_link"`
	ImageSrc            string            `json:"image_src"`
	IsDownloadable      bool              `json:"is_downloadable"`
	IsInStock           bool              `json:"is_in_stock"`
	IsPurchasable       bool              `json:"is_purchasable"`
	IsSoldIndividually  string            `json:"is_sold_individually"`
	IsVirtual           bool              `json:"is_virtual"`
	MaxQty              any               `json:"max_qty"`
	MinQty              int64             `json:"min_qty"`
	PriceHTML           string            `json:"price_html"`
	SKU                 string            `json:"sku"`
	VariationDesc       string            `json:"variation_description"`
	VariationID         int64             `json:"variation_id"`
	VariationIsActive   bool              `json:"variation_is_active"`
	VariationIsVisible  bool              `json:"variation_is_visible"`
	VariationStockLeft  *int64            `json:"variation_stock_left"`
	IsPreOrder          string            `json:"is_pre_order"`
	PreOrderLabel       string            `json:"pre_order_label"`
	PreOrderDate        string            `json:"pre_order_date"`
	Weight              string            `json:"weight"`
	WeightHTML          string            `json:"weight_html"`
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Variation converts one variation of parent. A variation without its own
// image shows the parent's main image, as WooCommerce does.
func (b *Builder) Variation(parent, v *catalog.Product) Variation {
	out := Variation{
		Attributes: map[string]string{}, BackordersAllowed: v.Backorders != catalog.BackordersNo,
		Dimensions:         Dimensions{v.Length, v.Width, v.Height},
		IsInStock:          v.InStock(),
		IsPurchasable:      v.IsPurchasable(b.Now),
		IsSoldIndividually: yesNo(v.SoldIndividually),
		SKU:                v.SKU, VariationDesc: v.Description, VariationID: v.ID,
		VariationIsActive: v.Active, VariationIsVisible: v.Visible && v.Published(),
		IsPreOrder: yesNo(v.PreOrder), PreOrderLabel: v.PreOrderLabel,
		Weight: v.Weight, WeightHTML: formatWeight(v.Weight),
	}
	if out.SKU == "" {
		out.SKU = parent.SKU
	}
	if out.Weight == "" {
		out.Weight, out.WeightHTML = parent.Weight, formatWeight(parent.Weight)
	}
	if out.WeightHTML == "" {
		out.WeightHTML = "N/A"
	}
	out.DimensionsHTML = formatDimensions(out.Dimensions)
	if v.PreOrder && v.PreOrderAt != nil {
		out.PreOrderDate = v.PreOrderAt.UTC().Format(time.RFC3339)
	}
	for _, a := range v.Variation {
		out.Attributes["attribute_"+a.Name] = a.Value
	}
	if price, regular, ok := b.ProductPrice(v); ok {
		out.DisplayPrice = b.decimal(price)
		out.DisplayRegularPrice = b.decimal(regular)
		out.PriceHTML = `<span class="price">` + b.PriceHTML(price, regular, v.SaleActive(b.Now)) + `</span>`
	}
	l := v.Limits()
	out.MinQty = l.Minimum
	out.MaxQty = ""
	if l.Maximum > 0 {
		out.MaxQty = l.Maximum
	}
	if b.ExactStock {
		out.VariationStockLeft = v.LowStockRemaining(LowStockThreshold)
	}
	avail := b.availability(v, out.IsInStock, v.OnBackorder())
	if avail.Text != "" {
		out.AvailabilityHTML = fmt.Sprintf("<p class=\"stock %s\">%s</p>\n", avail.Class, html.EscapeString(avail.Text))
	}
	img := parent.Images
	if len(v.Images) > 0 {
		img = v.Images
	}
	if len(img) > 0 {
		si := b.Image(img[0])
		out.ImageID = img[0].ID
		out.ImageSrc, out.ImageLink = si.Src, si.Src
		out.Image = VariationImage{
			Title: img[0].Name, Caption: img[0].Caption, URL: si.Src, Alt: si.Alt, Src: si.Src, Srcset: si.Srcset, Sizes: si.Sizes,
			FullSrc: si.Src, FullSrcW: si.Width, FullSrcH: si.Height,
			GalleryThumbnailSrc: si.Thumbnail, GalleryThumbnailSrcW: 100, GalleryThumbnailSrcH: 100,
			ThumbSrc: si.Thumbnail, ThumbSrcW: ThumbnailWidth, ThumbSrcH: ThumbnailWidth,
			SrcW: si.Width, SrcH: si.Height,
		}
		if out.Image.Alt == "" {
			out.Image.Alt = parent.Name
		}
	}
	return out
}

// decimal turns minor units into the float WooCommerce sends as display_price.
func (b *Builder) decimal(v int64) float64 {
	f := float64(v)
	for i := 0; i < b.Currency.MinorUnit; i++ {
		f /= 10
	}
	return f
}
