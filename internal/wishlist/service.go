package wishlist

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/clock"
)

// Catalog is what the service reads products through: the catalogue's
// product cache (catalog.Cache), brought up to the change log by Synced.
type Catalog interface {
	Synced(ctx context.Context) error
	Product(ctx context.Context, id int64) (*catalog.Product, error)
	Variations(ctx context.Context, parentID int64) ([]*catalog.Product, error)
}

// Service is the wishlist's use cases.
type Service struct {
	Store   Store
	Catalog Catalog
	Now     func() time.Time
	Log     *slog.Logger
}

func (s *Service) now() time.Time { return clock.Now(s.Now) }

// ParseID reads a product or variation id as a form or the query sends
// it: a positive decimal number, else ErrInvalidProduct.
func ParseID(raw string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || id <= 0 {
		return 0, ErrInvalidProduct
	}
	return id, nil
}

// Get reads the owner's list (an empty one when none).
func (s *Service) Get(ctx context.Context, o Owner) (*List, error) {
	if !o.Valid() {
		return &List{Owner: o}, nil
	}
	return s.Store.Wishlist(ctx, o, s.now())
}

// Resolve finds what id names: a product (variationID 0) or a variation
// of its product, published, with its price now in minor units (a
// variable product's lowest variation price; 0 when it has none).
// Anything else is ErrInvalidProduct.
func (s *Service) Resolve(ctx context.Context, id int64) (productID, variationID, price int64, err error) {
	if id <= 0 {
		return 0, 0, 0, ErrInvalidProduct
	}
	if err := s.Catalog.Synced(ctx); err != nil {
		return 0, 0, 0, err
	}
	now := s.now()
	p, err := s.Catalog.Product(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return 0, 0, 0, ErrInvalidProduct
	}
	if err != nil {
		return 0, 0, 0, err
	}
	switch p.Type {
	case catalog.TypeVariation:
		parent, err := s.Catalog.Product(ctx, p.ParentID)
		if errors.Is(err, catalog.ErrNotFound) {
			return 0, 0, 0, ErrInvalidProduct
		}
		if err != nil {
			return 0, 0, 0, err
		}
		if !parent.Published() || !p.Published() {
			return 0, 0, 0, ErrInvalidProduct
		}
		price, _ = p.Price(now)
		return parent.ID, p.ID, price, nil
	case catalog.TypeVariable:
		if !p.Published() {
			return 0, 0, 0, ErrInvalidProduct
		}
		vars, err := s.Catalog.Variations(ctx, p.ID)
		if err != nil {
			return 0, 0, 0, err
		}
		first := true
		for _, v := range vars {
			if v.Published() {
				if pr, ok := v.Price(now); ok && (first || pr < price) {
					price, first = pr, false
				}
			}
		}
		return p.ID, 0, price, nil
	}
	if !p.Published() {
		return 0, 0, 0, ErrInvalidProduct
	}
	price, _ = p.Price(now)
	return p.ID, 0, price, nil
}

// Set puts the product or variation id names into the owner's list (on)
// or takes it out, whatever the list held: asking twice is asking once
// (a double click changes nothing the second time). changed says whether
// the list changed. Adding needs a product a shopper may see; removing
// takes out what the list holds under that id even when its product is
// gone since. A guest's list lives GuestLifetime after the write.
func (s *Service) Set(ctx context.Context, o Owner, id int64, on bool) (changed bool, l *List, it Item, err error) {
	if !o.Valid() {
		return false, nil, it, ErrNoList
	}
	if id <= 0 {
		return false, nil, it, ErrInvalidProduct
	}
	now := s.now()
	if on {
		pid, vid, price, err := s.Resolve(ctx, id)
		if err != nil {
			return false, nil, it, err
		}
		it = Item{ProductID: pid, VariationID: vid, PriceAdded: price, AddedAt: now}
	} else {
		it = Item{ProductID: id}
		if err := s.Catalog.Synced(ctx); err != nil {
			return false, nil, it, err
		}
		if p, err := s.Catalog.Product(ctx, id); err == nil && p.Type == catalog.TypeVariation {
			it = Item{ProductID: p.ParentID, VariationID: p.ID}
		} else if err != nil && !errors.Is(err, catalog.ErrNotFound) {
			return false, nil, it, err
		}
	}
	changed, l, err = s.Store.SetWishlistItem(ctx, o, it, on, MaxItems, now, s.expires(o, now))
	return changed, l, it, err
}

// Toggle adds the product or variation when the list lacks it and removes
// it when it holds it; on is the state after.
func (s *Service) Toggle(ctx context.Context, o Owner, id int64) (on bool, l *List, err error) {
	cur, err := s.Get(ctx, o)
	if err != nil {
		return false, nil, err
	}
	pid, vid := id, int64(0)
	if err := s.Catalog.Synced(ctx); err != nil {
		return false, nil, err
	}
	if p, err := s.Catalog.Product(ctx, id); err == nil && p.Type == catalog.TypeVariation {
		pid, vid = p.ParentID, p.ID
	}
	on = !cur.Has(pid, vid)
	_, l, _, err = s.Set(ctx, o, id, on)
	return on, l, err
}

func (s *Service) expires(o Owner, now time.Time) *time.Time {
	if o.CustomerID > 0 {
		return nil
	}
	t := now.Add(GuestLifetime)
	return &t
}

// Merge moves a guest's list into the customer's when they log in (as the
// cart merges): items both hold keep the customer's; the guest's list is
// deleted. It answers the customer's list.
func (s *Service) Merge(ctx context.Context, guestKey string, customerID int64) (*List, error) {
	if guestKey == "" || customerID <= 0 {
		return nil, ErrNoList
	}
	return s.Store.MergeWishlist(ctx, guestKey, customerID, MaxItems, s.now())
}

// Share turns sharing on with a new link: the token returned is shown to
// the owner once (only its hash is kept); any link made before stops
// working. ErrNoList when the owner has no list yet.
func (s *Service) Share(ctx context.Context, o Owner) (token string, err error) {
	if !o.Valid() {
		return "", ErrNoList
	}
	token = NewShareToken()
	if err := s.Store.SetWishlistShare(ctx, o, ShareHash(token), true, s.now()); err != nil {
		return "", err
	}
	return token, nil
}

// StopSharing turns sharing off; the link stops working and is not kept.
func (s *Service) StopSharing(ctx context.Context, o Owner) error {
	if !o.Valid() {
		return ErrNoList
	}
	return s.Store.SetWishlistShare(ctx, o, "", false, s.now())
}

// Shared reads the list a share link's token names, else ErrNotShared.
func (s *Service) Shared(ctx context.Context, token string) (*List, error) {
	h := ShareHash(token)
	if h == "" {
		return nil, ErrNotShared
	}
	return s.Store.WishlistByShare(ctx, h, s.now())
}

// DeleteExpired deletes the guests' lists expired now.
func (s *Service) DeleteExpired(ctx context.Context) (int64, error) {
	return s.Store.DeleteExpiredWishlists(ctx, s.now())
}

// Counts is how many lists hold each product.
func (s *Service) Counts(ctx context.Context, productIDs []int64) (map[int64]int64, error) {
	if len(productIDs) == 0 {
		return map[int64]int64{}, nil
	}
	return s.Store.WishlistCounts(ctx, productIDs)
}

// MostWished is the products most lists hold (limit 1 to 100).
func (s *Service) MostWished(ctx context.Context, limit int) ([]ProductCount, error) {
	limit = min(max(limit, 1), 100)
	return s.Store.MostWished(ctx, limit)
}
