package seed

import (
	"strings"

	"vitrine/internal/catalog"
)

// def is one demo product as the merchant would type it. Prices are US
// cents; weights are kg and dimensions cm ("LxWxH").
type def struct {
	name, sku   string
	kind        string // picture template
	colour      string // picture colour of simple products
	label       string // text printed on gift-card pictures
	cat         string
	price, sale int64
	stock       int64 // > 0: managed stock
	short, long string
	tags        []string
	featured    bool
	order       int // menu order: the curated default sort
	age         int // days since it was added
	weight      string
	dims        string
	views       []int
	children    []string // grouped: slugs saved earlier
	upsells     []string
	crossSells  []string
}

// html builds a long description: a paragraph and a list of details.
func html(intro string, points ...string) string {
	var b strings.Builder
	b.WriteString("<p>" + intro + "</p>")
	if len(points) > 0 {
		b.WriteString("<ul>")
		for _, p := range points {
			b.WriteString("<li>" + p + "</li>")
		}
		b.WriteString("</ul>")
	}
	return b.String()
}

// products saves the catalogue. Children of the grouped product come
// before it; upsells and cross-sells are linked afterwards by slug.
func (b *builder) products() error {
	steps := []func() error{
		// T-shirts
		func() error {
			_, err := b.variable(def{
				name: "Classic Tee", sku: "TEE-CLASSIC", kind: kindTee, cat: "Clothing/T-shirts",
				price: 2800, order: 1, age: 40, featured: true, weight: "0.22", dims: "30x25x2",
				tags:  []string{"Bestseller", "Organic cotton", "Unisex"},
				short: "Our everyday tee in 200 g organic cotton jersey, with a neat ribbed collar that keeps its shape.",
				long: html("The Classic Tee is the one we wear most. The jersey is knitted tight enough to hang well and soft enough to live in, and it is garment-dyed so every colour has a little depth.",
					"100% organic cotton, 200 g/m²", "Ribbed crew neck with taped shoulders", "Relaxed, true-to-size fit", "Machine wash at 30 °C"),
				upsells:    []string{"pocket-tee", "heavyweight-long-sleeve-tee"},
				crossSells: []string{"everyday-crew-socks", "washed-cotton-cap", "printed-bandana"},
			}, []string{"navy", "black", "chalk", "heather-grey", "forest", "rust"}, sizes, false, func(v *catalog.Product, c, s string) {
				switch {
				case c == "navy" && s == "XS":
					v.StockQuantity = price(0)
					v.StockStatus = catalog.StockOutOfStock
				case c == "rust" && s == "XXL":
					v.StockQuantity = price(3)
				}
			})
			return err
		},
		func() error {
			_, err := b.variable(def{
				name: "Pocket Tee", sku: "TEE-POCKET", kind: kindPocketTee, cat: "Clothing/T-shirts",
				price: 3200, sale: 2400, order: 9, age: 30, weight: "0.24", dims: "30x25x2",
				tags:  []string{"Organic cotton", "Unisex"},
				short: "A slightly heavier tee with a chest pocket. On sale for two weeks.",
				long: html("Same organic jersey as the Classic Tee, a touch heavier, with a patch pocket stitched square on the chest.",
					"100% organic cotton, 220 g/m²", "Patch pocket on the left chest", "Boxy fit, dropped shoulder"),
			}, []string{"oat", "olive", "sky", "black"}, sizes[1:], false, func(v *catalog.Product, c, s string) {
				v.SaleFrom, v.SaleTo = b.at(-3, 0), b.at(11, 0)
			})
			return err
		},
		func() error {
			_, err := b.variable(def{
				name: "Heavyweight Long Sleeve Tee", sku: "TEE-LONGSLEEVE", kind: kindLongSleeve, cat: "Clothing/T-shirts",
				price: 3800, order: 14, age: 26, weight: "0.32", dims: "32x26x3",
				tags:  []string{"Unisex"},
				short: "A long-sleeved tee in dense 260 g jersey. One price for every size.",
				long: html("Cut long in the body and the sleeves, with ribbed cuffs you can push up. Choose your colour; every size costs the same and ships from the same shelf.",
					"100% cotton, 260 g/m²", "Ribbed cuffs and collar", "Sizes S to XL"),
			}, []string{"chalk", "navy", "burgundy"}, []string{"S", "M", "L", "XL"}, true, func(v *catalog.Product, c, s string) {
				v.ManageStock, v.StockQuantity = false, nil
			})
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Mountain Line Tee", sku: "TEE-MOUNTAIN", kind: kindTee, colour: "forest", cat: "Clothing/T-shirts",
				price: 3000, stock: 18, order: 15, age: 22, weight: "0.22", dims: "30x25x2",
				tags:  []string{"Organic cotton"},
				short: "A forest-green tee with a single-line mountain drawn across the back.",
				long: html("Printed by hand in water-based ink, so the print sinks into the cloth instead of sitting on top.",
					"Water-based screen print", "Organic cotton jersey", "Printed in small batches"),
				views: []int{viewFront, viewBack, viewDetail},
			}, func(p *catalog.Product) {
				p.Attributes = []catalog.ProductAttribute{{
					Name: "Material", Visible: true,
					Values: []catalog.AttributeValue{{Name: "Organic cotton", Slug: "Organic cotton"}},
				}}
			})
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Striped Breton Tee", sku: "TEE-BRETON", kind: kindBreton, colour: "chalk", cat: "Clothing/T-shirts",
				price: 3600, sale: 2900, stock: 22, order: 16, age: 35, weight: "0.25", dims: "30x25x2",
				tags:  []string{"Unisex"},
				short: "A boat-neck tee in sturdy cotton, made for sea air and long lunches.",
				long:  html("A close-knit cotton with a boat neck and three-quarter-length sleeves.", "100% cotton interlock", "Boat neck", "Straight hem with side vents"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Cotton Tank Top", sku: "TEE-TANK", kind: kindTank, colour: "rose", cat: "Clothing/T-shirts",
				price: 2200, order: 17, age: 2, weight: "0.15", dims: "28x24x2",
				tags:  []string{"New in", "Organic cotton"},
				short: "A fine-rib tank for hot days and for layering.",
				long:  html("Cut from a fine rib that moves with you and keeps its shape after many washes.", "95% organic cotton, 5% elastane", "Scoop neck", "Slim fit"),
			}, nil)
			return err
		},

		// Shirts
		func() error {
			_, err := b.variable(def{
				name: "Oxford Shirt", sku: "SHIRT-OXFORD", kind: kindShirt, cat: "Clothing/Shirts",
				price: 7400, order: 10, age: 28, weight: "0.35", dims: "35x28x3",
				tags:  []string{"Unisex"},
				short: "A soft, washed Oxford shirt with a button-down collar.",
				long:  html("Woven from a two-ply Oxford cloth and washed before it reaches you, so it feels broken-in from the first wear.", "100% cotton Oxford", "Button-down collar, chest pocket", "Mother-of-pearl buttons"),
			}, []string{"sky", "chalk", "navy"}, []string{"S", "M", "L", "XL", "XXL"}, false, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Linen Overshirt", sku: "SHIRT-LINEN", kind: kindShirt, colour: "oat", cat: "Clothing/Shirts",
				price: 9200, stock: 9, order: 18, age: 20, weight: "0.4", dims: "35x28x4",
				tags:  []string{"New in"},
				short: "A loose overshirt in heavy European linen, for the months between coats.",
				long:  html("Heavy enough to wear open as a light jacket, soft enough to wear closed as a shirt.", "100% linen, 240 g/m²", "Two chest pockets", "Horn buttons"),
			}, nil)
			return err
		},

		// Hoodies
		func() error {
			_, err := b.variable(def{
				name: "Everyday Hoodie", sku: "HOOD-EVERYDAY", kind: kindHoodie, cat: "Clothing/Hoodies",
				price: 6800, order: 2, age: 38, featured: true, weight: "0.65", dims: "38x30x6",
				tags:  []string{"Bestseller", "Unisex"},
				short: "Loopback cotton, a double-layer hood and a pocket deep enough for a paperback. Olive is coming soon: pre-order now.",
				long: html("The Everyday Hoodie is brushed inside only lightly, so it stays warm without pilling. The new olive colour ships in three weeks.",
					"100% cotton loopback, 380 g/m²", "Double-layer hood with flat drawcords", "Ribbed cuffs and hem"),
				upsells:    []string{"zip-hoodie"},
				crossSells: []string{"ribbed-beanie", "relaxed-chinos"},
			}, []string{"heather-grey", "black", "forest", "olive"}, sizes, false, func(v *catalog.Product, c, s string) {
				if c == "olive" {
					v.PreOrder = true
					v.PreOrderAt = b.at(21, 9)
					v.PreOrderLabel = "Pre-order now"
					v.ManageStock, v.StockQuantity = false, nil
				}
			})
			return err
		},
		func() error {
			_, err := b.variable(def{
				name: "Zip Hoodie", sku: "HOOD-ZIP", kind: kindHoodie, cat: "Clothing/Hoodies",
				price: 7800, order: 11, age: 33, weight: "0.7", dims: "38x30x6",
				tags:  []string{"Unisex"},
				short: "The Everyday Hoodie with a full-length metal zip.",
				long:  html("A sturdy two-way metal zip and the same loopback cotton as our Everyday Hoodie.", "100% cotton loopback", "Two-way metal zip", "Split kangaroo pocket"),
			}, []string{"navy", "heather-grey", "rust"}, []string{"S", "M", "L", "XL", "XXL"}, false, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Crewneck Sweatshirt", sku: "HOOD-CREW", kind: kindLongSleeve, colour: "heather-grey", cat: "Clothing/Hoodies",
				price: 5800, stock: 14, order: 19, age: 31, weight: "0.55", dims: "36x28x5",
				tags:  []string{"Unisex"},
				short: "A classic grey crewneck in heavy fleece-back cotton.",
				long:  html("Heavy fleece-back cotton, cut with raglan sleeves for easy movement.", "80% cotton, 20% recycled polyester", "Raglan sleeves", "Ribbed cuffs and hem"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Half-zip Fleece", sku: "HOOD-FLEECE", kind: kindLongSleeve, colour: "mustard", cat: "Clothing/Hoodies",
				price: 7200, sale: 5900, stock: 11, order: 20, age: 18, weight: "0.48", dims: "36x28x6",
				tags:  []string{"Recycled"},
				short: "A warm half-zip fleece made from recycled bottles. Weekend sale.",
				long:  html("A dense, low-pile fleece that dries fast and packs small.", "100% recycled polyester fleece", "Half-length zip with chin guard", "Zipped chest pocket"),
			}, func(p *catalog.Product) {
				p.SaleFrom, p.SaleTo = b.at(-1, 0), b.at(6, 0)
			})
			return err
		},

		// Knitwear
		func() error {
			_, err := b.variable(def{
				name: "Merino Crew Sweater", sku: "KNIT-MERINO", kind: kindSweater, cat: "Clothing/Knitwear",
				price: 11000, order: 3, age: 36, featured: true, weight: "0.38", dims: "34x28x5",
				tags:       []string{"Merino wool", "Bestseller"},
				short:      "A fine-gauge merino crew, warm without bulk and soft against the skin.",
				long:       html("Knitted from extra-fine merino that regulates temperature, so it works on a cold train and in a warm office.", "100% extra-fine merino wool", "Fully fashioned shoulders", "Hand wash or wool cycle"),
				crossSells: []string{"cashmere-blend-scarf"},
			}, []string{"navy", "oat", "burgundy", "forest"}, []string{"S", "M", "L", "XL", "XXL"}, false, func(v *catalog.Product, c, s string) {
				if c == "burgundy" && s == "S" {
					v.StockQuantity = price(2)
				}
			})
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Fisherman Cable Knit", sku: "KNIT-CABLE", kind: kindSweater, colour: "chalk", cat: "Clothing/Knitwear",
				price: 14500, stock: 6, order: 21, age: 34, weight: "0.9", dims: "40x32x8",
				tags:  []string{"Made in Portugal"},
				short: "A chunky cable sweater in undyed wool, knitted slowly in a family mill.",
				long:  html("Thick cables, a high rib and a generous fit: the sweater you reach for in January.", "100% wool, undyed", "Knitted in Portugal", "Dry clean or hand wash cold"),
				views: []int{viewFront, viewDetail, viewBack},
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Ribbed Knit Vest", sku: "KNIT-VEST", kind: kindTank, colour: "olive", cat: "Clothing/Knitwear",
				price: 8500, stock: 12, order: 22, age: 15, weight: "0.3", dims: "32x26x4",
				tags:  []string{"Merino wool"},
				short: "A sleeveless rib vest to wear over shirts and tees.",
				long:  html("A rib-knit vest in merino and cotton, cut close to layer under a jacket.", "70% merino wool, 30% cotton", "Deep armholes", "Ribbed throughout"),
			}, nil)
			return err
		},
		func() error {
			// A draft the merchant is still writing: shoppers never see it.
			_, err := b.simple(def{
				name: "Alpaca Cardigan", sku: "KNIT-ALPACA", kind: kindSweater, colour: "rose", cat: "Clothing/Knitwear",
				price: 16500, order: 23, age: 1, weight: "0.5",
				tags:  []string{"New in"},
				short: "Draft: a brushed alpaca cardigan for next season.",
				long:  html("Copy and photos to follow."),
			}, func(p *catalog.Product) { p.Status = catalog.StatusDraft })
			return err
		},

		// Trousers
		func() error {
			_, err := b.variable(def{
				name: "Relaxed Chinos", sku: "TRS-CHINO", kind: kindTrousers, cat: "Clothing/Trousers",
				price: 7800, order: 4, age: 32, featured: true, weight: "0.6", dims: "40x30x4",
				tags:  []string{"Bestseller", "Organic cotton"},
				short: "Mid-rise chinos with a relaxed leg and a clean, tapered ankle.",
				long:  html("Cut from an organic cotton twill with a little give, so they look smart and sit easily.", "98% organic cotton, 2% elastane", "Mid rise, relaxed leg, tapered ankle", "Two front and two back pockets"),
			}, []string{"oat", "navy", "olive"}, []string{"S", "M", "L", "XL"}, false, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Drawstring Linen Trousers", sku: "TRS-LINEN", kind: kindTrousers, colour: "oat", cat: "Clothing/Trousers",
				price: 8800, sale: 6900, stock: 16, order: 24, age: 27, weight: "0.42", dims: "40x30x4",
				short: "Easy linen trousers with an elastic back and a cotton drawcord.",
				long:  html("Airy, wide and quick to dry: summer trousers that still look considered.", "100% linen", "Elastic back waist with drawcord", "Side seam pockets"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Canvas Work Pants", sku: "TRS-WORK", kind: kindTrousers, colour: "rust", cat: "Clothing/Trousers",
				price: 9500, stock: 10, order: 25, age: 24, weight: "0.8", dims: "42x32x5",
				tags:  []string{"Made in Portugal"},
				short: "Hard-wearing cotton canvas work pants that soften with every wash.",
				long:  html("A 12 oz cotton canvas, triple-stitched at the seams that take the strain.", "100% cotton canvas, 12 oz", "Triple-stitched seams", "Hammer loop and rule pocket"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Chino Shorts", sku: "TRS-SHORTS", kind: kindShorts, colour: "sky", cat: "Clothing/Trousers",
				price: 5400, stock: 20, order: 26, age: 3, weight: "0.3", dims: "30x26x3",
				tags:  []string{"New in", "Organic cotton"},
				short: "Seven-inch chino shorts for long, warm days.",
				long:  html("Our chino twill in a shorter cut, with a flat front and a clean hem.", "98% organic cotton, 2% elastane", "7\" inseam", "Flat front"),
			}, nil)
			return err
		},

		// Bags
		func() error {
			_, err := b.variable(def{
				name: "Market Tote", sku: "BAG-TOTE", kind: kindTote, cat: "Accessories/Bags",
				price: 3200, order: 5, age: 39, featured: true, weight: "0.35", dims: "42x38x12",
				tags:       []string{"Bestseller", "Gift idea"},
				short:      "A roomy canvas tote with long handles and a flat base.",
				long:       html("Big enough for the week's vegetables and a baguette, strong enough to carry them home.", "16 oz cotton canvas", "Reinforced handles, 65 cm drop", "Inside zip pocket"),
				crossSells: []string{"zip-pouch"},
			}, []string{"mustard", "forest", "chalk", "black"}, nil, false, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Big Weekender Tote", sku: "BAG-WEEKENDER", kind: kindTote, colour: "navy", cat: "Accessories/Bags",
				price: 6400, stock: 8, order: 27, age: 29, weight: "0.9", dims: "55x40x22",
				tags:  []string{"Gift idea"},
				short: "An oversized tote for two nights away.",
				long:  html("Waxed canvas with leather-reinforced handles and a padded base.", "Waxed cotton canvas", "Leather-reinforced handles", "Fits a 15\" laptop"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Zip Pouch", sku: "BAG-POUCH", kind: kindPouch, colour: "rust", cat: "Accessories/Bags",
				price: 1800, stock: 40, order: 28, age: 23, weight: "0.08", dims: "22x15x2",
				tags:  []string{"Gift idea"},
				short: "A small canvas pouch for chargers, pens or a passport.",
				long:  html("Lined in cotton with a smooth metal zip.", "Cotton canvas, cotton lining", "YKK metal zip", "22 × 15 cm"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Hand-stitched Leather Wallet", sku: "BAG-WALLET", kind: kindPouch, colour: "rust", cat: "Accessories/Bags",
				price: 4800, order: 29, age: 21,
				short: "A slim vegetable-tanned leather wallet, made and sold by an independent leatherworker we admire.",
				long:  html("Each wallet is cut and saddle-stitched by hand. It is sold from the maker's own shop.", "Vegetable-tanned leather", "Four card slots and a note pocket", "Saddle-stitched with waxed linen thread"),
				views: []int{viewFront, viewDetail},
			}, func(p *catalog.Product) {
				p.Type = catalog.TypeExternal
				p.ExternalURL = "https://example.com/makers/leather-wallet"
				p.ButtonText = "Buy from the maker"
			})
			return err
		},

		// Hats
		func() error {
			_, err := b.variable(def{
				name: "Ribbed Beanie", sku: "HAT-BEANIE", kind: kindBeanie, cat: "Accessories/Hats",
				price: 2400, order: 6, age: 37, featured: true, weight: "0.08", dims: "22x20x3",
				tags:  []string{"Merino wool", "Gift idea"},
				short: "A fisherman's beanie in soft merino with a deep turn-up.",
				long:  html("Knitted in a chunky rib that hugs without squeezing.", "100% merino wool", "Deep double-layer cuff", "One size"),
			}, []string{"mustard", "navy", "rust", "heather-grey", "forest", "black"}, nil, false, nil)
			return err
		},
		func() error {
			_, err := b.variable(def{
				name: "Washed Cotton Cap", sku: "HAT-CAP", kind: kindCap, cat: "Accessories/Hats",
				price: 2600, order: 12, age: 30, weight: "0.1", dims: "26x18x12",
				tags:  []string{"Unisex"},
				short: "A six-panel cap in washed cotton twill with an adjustable strap.",
				long:  html("Garment-washed for a soft, lived-in feel from day one.", "100% cotton twill", "Adjustable strap with brass buckle", "One size"),
			}, []string{"navy", "oat", "forest", "black", "rust"}, nil, false, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Pompom Beanie", sku: "HAT-POMPOM", kind: kindPomBeanie, colour: "burgundy", cat: "Accessories/Hats",
				price: 3000, stock: 15, order: 30, age: 19, weight: "0.1", dims: "24x20x8",
				tags:  []string{"Gift idea"},
				short: "A lambswool beanie topped with a generous pompom.",
				long:  html("Soft lambswool in a classic shape with a detachable pompom.", "100% lambswool", "Detachable pompom", "One size"),
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Reversible Bucket Hat", sku: "HAT-BUCKET", kind: kindBucket, colour: "olive", cat: "Accessories/Hats",
				price: 3400, stock: 12, order: 31, age: 4, weight: "0.09", dims: "30x30x10",
				tags:  []string{"New in"},
				short: "Olive on one side, oat on the other: two hats for one.",
				long:  html("Cotton twill outside, cotton poplin inside, stitched so either side can face out.", "100% cotton", "Reversible", "Sizes by head circumference: 57 and 59 cm"),
			}, nil)
			return err
		},
		func() error {
			// Hidden from the shop: reachable only by a direct link.
			_, err := b.simple(def{
				name: "Studio Staff Cap", sku: "HAT-STAFF", kind: kindCap, colour: "chalk", cat: "Accessories/Hats",
				price: 2000, stock: 5, order: 32, age: 16, weight: "0.1",
				short: "The cap our studio team wears. Not in the shop, but you found it.",
				long:  html("A simple chalk cap with a tonal embroidered logo."),
			}, func(p *catalog.Product) { p.CatalogVisibility = catalog.VisibilityHidden })
			return err
		},

		// Scarves
		func() error {
			_, err := b.variable(def{
				name: "Chunky Wool Scarf", sku: "SCARF-CHUNKY", kind: kindScarf, cat: "Accessories/Scarves",
				price: 5800, order: 13, age: 25, weight: "0.3", dims: "30x20x6",
				tags:  []string{"Made in Portugal"},
				short: "A long, thick scarf in brushed wool with tied fringe.",
				long:  html("Woven and brushed in Portugal until it is soft enough to wear against the neck.", "100% wool", "190 × 35 cm", "Hand-tied fringe"),
			}, []string{"rust", "heather-grey", "navy", "mustard"}, nil, false, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Striped Lightweight Scarf", sku: "SCARF-STRIPE", kind: kindScarf, colour: "sky", cat: "Accessories/Scarves",
				price: 3900, sale: 2900, stock: 13, order: 33, age: 17, weight: "0.12", dims: "25x18x3",
				short: "A light cotton-modal scarf with soft stripes. Limited-time price.",
				long:  html("Thin enough for spring evenings, long enough to wrap twice.", "60% cotton, 40% modal", "200 × 70 cm", "Fringed ends"),
			}, func(p *catalog.Product) {
				p.SaleFrom, p.SaleTo = b.at(-5, 0), b.at(9, 0)
			})
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Cashmere-blend Scarf", sku: "SCARF-CASHMERE", kind: kindScarf, colour: "oat", cat: "Accessories/Scarves",
				price: 8900, stock: 4, order: 7, age: 34, featured: true, weight: "0.2", dims: "28x20x4",
				tags:  []string{"Gift idea"},
				short: "A featherlight scarf in a wool and cashmere blend. Only a few left.",
				long:  html("Woven loosely, then brushed, for warmth that weighs almost nothing.", "70% wool, 30% cashmere", "180 × 40 cm", "Gift-boxed"),
				views: []int{viewFront, viewDetail, viewFlat},
			}, nil)
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Printed Bandana", sku: "SCARF-BANDANA", kind: kindBandana, colour: "navy", cat: "Accessories/Scarves",
				price: 1600, stock: 30, order: 34, age: 12, weight: "0.04", dims: "18x12x1",
				short: "A cotton bandana printed with a small dot pattern.",
				long:  html("Wear it round the neck, on the head or tied to a bag.", "100% cotton voile", "55 × 55 cm", "Rolled, hand-finished edges"),
			}, nil)
			return err
		},

		// Socks
		func() error {
			_, err := b.simple(def{
				name: "Everyday Crew Socks", sku: "SOCK-CREW", kind: kindSocks, colour: "mustard", cat: "Accessories/Socks",
				price: 900, stock: 120, order: 35, age: 14, weight: "0.06", dims: "20x10x2",
				tags:  []string{"Organic cotton"},
				short: "Cushioned organic cotton socks. Sold two pairs at a time, up to ten pairs.",
				long:  html("A cushioned sole, a reinforced heel and toe, and a cuff that stays up.", "80% organic cotton, 18% polyamide, 2% elastane", "Price per pair; order in twos", "One size fits EU 39–46"),
			}, func(p *catalog.Product) { p.MinQty, p.MaxQty, p.Step = 2, 10, 2 })
			return err
		},
		func() error {
			_, err := b.variable(def{
				name: "Wool Hiking Socks", sku: "SOCK-HIKE", kind: kindSocks, cat: "Accessories/Socks",
				price: 1800, order: 36, age: 11, weight: "0.09", dims: "22x10x3",
				tags:  []string{"Merino wool"},
				short: "Thick merino-blend socks for long walks and cold floors.",
				long:  html("Fully cushioned, with a ribbed arch that keeps them from twisting.", "65% merino wool, 33% polyamide, 2% elastane", "Fully cushioned", "S: EU 36–39, M: 40–43, L: 44–47"),
			}, []string{"forest", "heather-grey"}, []string{"S", "M", "L"}, false, nil)
			return err
		},

		// Prints
		func() error {
			_, err := b.simple(def{
				name: "Limited Print: Coastline No. 3", sku: "PRINT-COASTLINE", kind: kindPrint, colour: "navy", cat: "Prints",
				price: 12000, stock: 7, order: 8, age: 10, featured: true, weight: "0.5", dims: "50x40x1",
				tags:  []string{"Gift idea", "New in"},
				short: "A signed giclée print in an edition of 50. One per customer.",
				long:  html("Printed on 310 g cotton rag paper with archival pigment inks, signed and numbered by the artist.", "Edition of 50, signed and numbered", "40 × 50 cm, unframed", "Shipped flat between boards"),
				views: []int{viewFront, viewDetail},
			}, func(p *catalog.Product) { p.SoldIndividually = true })
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Risograph Print: Sunday Market", sku: "PRINT-MARKET", kind: kindPrint, colour: "rust", cat: "Prints",
				price: 4500, stock: 25, order: 37, age: 9, weight: "0.2", dims: "42x30x1",
				short: "A two-colour risograph print of a busy market morning.",
				long:  html("Printed in fluorescent orange and teal on recycled paper.", "A3, 297 × 420 mm", "Two-colour risograph", "Recycled 170 g paper"),
			}, nil)
			return err
		},

		// Gift cards
		func() error {
			_, err := b.simple(def{
				name: "Gift Card $50", sku: "GIFT-50", kind: kindGiftCard, colour: "forest", label: "$50", cat: "Gift cards",
				price: 5000, order: 38, age: 45,
				tags:  []string{"Gift idea"},
				short: "A $50 gift card, sent by email. Never expires.",
				long:  html("We email the card to you or straight to the lucky person, with your message.", "Delivered by email within minutes", "Never expires", "Usable on everything in the shop"),
			}, func(p *catalog.Product) { p.SoldIndividually = true; p.TaxStatus = "none" })
			return err
		},
		func() error {
			_, err := b.simple(def{
				name: "Gift Card $100", sku: "GIFT-100", kind: kindGiftCard, colour: "burgundy", label: "$100", cat: "Gift cards",
				price: 10000, order: 39, age: 45,
				tags:  []string{"Gift idea"},
				short: "A $100 gift card, sent by email. Never expires.",
				long:  html("We email the card to you or straight to the lucky person, with your message.", "Delivered by email within minutes", "Never expires", "Usable on everything in the shop"),
			}, func(p *catalog.Product) { p.SoldIndividually = true; p.TaxStatus = "none" })
			return err
		},

		// A grouped product; its children were saved above.
		func() error {
			_, err := b.simple(def{
				name: "Weekend Set", kind: kindBreton, colour: "chalk", cat: "Clothing",
				order: 40, age: 8,
				tags:     []string{"Gift idea"},
				short:    "Our favourite weekend outfit: a Breton tee, linen trousers and a light scarf. Pick what you need.",
				long:     html("Everything in the set is also sold on its own; choose quantities for each piece below."),
				children: []string{"striped-breton-tee", "drawstring-linen-trousers", "striped-lightweight-scarf"},
				views:    []int{viewFlat},
			}, func(p *catalog.Product) {
				p.Type = catalog.TypeGrouped
				p.Categories = append(p.Categories, catalog.Term{ID: b.cats["Accessories"]})
			})
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// demoReview is a shopper's review of a demo product, by slug.
type demoReview struct {
	slug     string
	author   string
	rating   int
	verified bool
	daysAgo  int
	text     string
}

var demoReviews = []demoReview{
	{"classic-tee", "Maya Okafor", 5, true, 20, "Bought the navy and the chalk. Still soft after a dozen washes and the collar hasn't stretched at all."},
	{"classic-tee", "Tom Lindqvist", 4, true, 14, "Great weight and colour. I sized down for a closer fit; the M is quite roomy."},
	{"classic-tee", "Priya Raman", 5, false, 6, "The forest green is even nicer in person. Ordering the rust next."},
	{"everyday-hoodie", "Jonah Weiss", 5, true, 18, "Warm without being bulky, and the hood actually stays up. Best hoodie I own."},
	{"everyday-hoodie", "Lucía Fernández", 4, true, 9, "Lovely fabric. Sleeves are a little long for me but the cuffs fold nicely."},
	{"merino-crew-sweater", "Hannah Becker", 5, true, 16, "Wore it on a ten-hour flight and it looked fine at the other end. Not itchy at all."},
	{"merino-crew-sweater", "Sam Adeyemi", 3, false, 5, "Beautiful colour, but it pilled slightly under the arms after a month."},
	{"market-tote", "Elise Moreau", 5, true, 12, "Carries a full shop without complaint. The inside pocket is a nice touch."},
	{"ribbed-beanie", "Kenji Watanabe", 4, true, 7, "Warm and soft. The mustard brightens up a grey winter coat."},
	{"cashmere-blend-scarf", "Grace Mensah", 5, true, 3, "Bought as a gift and then had to buy one for myself."},
}
