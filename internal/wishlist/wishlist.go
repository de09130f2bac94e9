// Package wishlist keeps the products a shopper saves for later: a guest's
// list, named by its session key (a signed cookie, like the cart's
// session), or a customer's, named by the account; the merge of a guest's
// list into the account's at login; a read-only shared view reached by an
// unguessable link the owner can turn off or renew; and the counts the
// admin shows (how many lists hold a product, the most wished products).
//
// Like the cart, it never imports net/http: a list is named by an Owner,
// and the cookies, nonces and wire shapes belong to the adapters.
package wishlist

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"
)

// GuestLifetime is how long a guest's list lives after its last write.
// A customer's list never expires.
const GuestLifetime = 30 * 24 * time.Hour

// MaxItems bounds one list; an add past it is ErrFull.
const MaxItems = 500

// Owner names a list: a guest's session key or a customer's account id
// (exactly one is set).
type Owner struct {
	SessionKey string
	CustomerID int64
}

// Guest is a guest's list's owner.
func Guest(key string) Owner { return Owner{SessionKey: key} }

// Customer is a customer's list's owner.
func Customer(id int64) Owner { return Owner{CustomerID: id} }

// Valid says the owner names exactly one list.
func (o Owner) Valid() bool {
	return (o.CustomerID > 0) != (o.SessionKey != "")
}

// Item is one wished product or variation (VariationID 0: the product
// itself) with its price, in the shop's minor units, when it was added.
type Item struct {
	ProductID   int64
	VariationID int64
	PriceAdded  int64
	AddedAt     time.Time
}

// ItemID is what the item names: the variation, else the product.
func (i Item) ItemID() int64 {
	if i.VariationID != 0 {
		return i.VariationID
	}
	return i.ProductID
}

// List is a wishlist with its items, newest first. A list that was never
// written (or a guest's that expired) has ID 0 and no items.
type List struct {
	ID           int64
	Owner        Owner
	ShareEnabled bool
	CreatedAt    time.Time
	UpdatedAt    time.Time
	ExpiresAt    *time.Time
	Items        []Item
}

// Has says whether the list holds the product (variationID 0) or the
// variation.
func (l *List) Has(productID, variationID int64) bool {
	for _, it := range l.Items {
		if it.ProductID == productID && it.VariationID == variationID {
			return true
		}
	}
	return false
}

// ProductCount is how many lists hold a product (any of its variations
// counted once per list).
type ProductCount struct {
	ProductID int64
	Lists     int64
}

// Errors of the use cases.
var (
	// ErrInvalidProduct: the id names nothing a shopper may wish for (not a
	// positive number, unknown, unpublished).
	ErrInvalidProduct = errors.New("wishlist: no such product")
	// ErrFull: the list holds MaxItems items already.
	ErrFull = errors.New("wishlist: the list is full")
	// ErrNotShared: the share link names no shared list (never made,
	// turned off, or renewed since).
	ErrNotShared = errors.New("wishlist: no list is shared by this link")
	// ErrNoList: the owner has no list (sharing needs one).
	ErrNoList = errors.New("wishlist: no list")
)

// Store is what the use cases read and write. Times are the service's
// clock; a guest's list whose expires_at has passed is absent to every
// read and write (and replaced by a new one on a write).
type Store interface {
	// Wishlist reads the owner's list (ID 0 and no items when none).
	Wishlist(ctx context.Context, o Owner, now time.Time) (*List, error)
	// SetWishlistItem adds (on) or removes the item in one transaction,
	// creating the list on an add; expires is the guest list's new expiry
	// (nil for a customer's). It answers whether the list changed and the
	// list after the write. An add to a list of max items is ErrFull.
	SetWishlistItem(ctx context.Context, o Owner, it Item, on bool, max int, now time.Time, expires *time.Time) (changed bool, l *List, err error)
	// MergeWishlist moves the guest list's items into the customer's (an
	// item both hold keeps the customer's, older, price), up to max items,
	// and deletes the guest list, in one transaction.
	MergeWishlist(ctx context.Context, guestKey string, customerID int64, max int, now time.Time) (*List, error)
	// SetWishlistShare sets the list's share hash ("" clears it) and
	// whether sharing is on; ErrNoList when the owner has none.
	SetWishlistShare(ctx context.Context, o Owner, hash string, enabled bool, now time.Time) error
	// WishlistByShare reads the list shared by the hash (sharing on, not
	// expired), else ErrNotShared.
	WishlistByShare(ctx context.Context, hash string, now time.Time) (*List, error)
	// DeleteExpiredWishlists deletes guests' lists expired at now.
	DeleteExpiredWishlists(ctx context.Context, now time.Time) (int64, error)
	// WishlistCounts is how many lists hold each product (its variations
	// included); products no list holds are absent.
	WishlistCounts(ctx context.Context, productIDs []int64) (map[int64]int64, error)
	// MostWished is the products most lists hold, most first.
	MostWished(ctx context.Context, limit int) ([]ProductCount, error)
}

// NewShareToken makes a share link's token (32 random bytes, URL-safe).
func NewShareToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ShareHash is what the store keeps of a token: its SHA-256 in hex. A
// token of the wrong shape hashes to "" (it names nothing).
func ShareHash(token string) string {
	if len(token) != 43 || strings.Trim(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
		return ""
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
