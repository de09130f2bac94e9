package alerts

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/mail"
)

// MailLinks are what the mails link to.
type MailLinks struct {
	// BaseURL is the shop's address ("https://shop.example").
	BaseURL string
	// Mailto, when set, reads the shop's address that takes unsubscribe
	// requests by mail (the List-Unsubscribe header's mailto: link); ""
	// sends the https link alone.
	Mailto func() string
	// Format writes a price in the price-drop digest (the shop's currency);
	// nil writes minor units with two decimals.
	Format func(minor int64) string
}

func (l MailLinks) base() string { return strings.TrimRight(l.BaseURL, "/") }

func (l MailLinks) productURL(slug string) string {
	return l.base() + "/product/" + url.PathEscape(slug) + "/"
}

func (l MailLinks) unsubscribe(token string) []string {
	out := []string{l.base() + UnsubscribePath + "?token=" + url.QueryEscape(token)}
	if l.Mailto == nil {
		return out
	}
	if m := l.Mailto(); m != "" && strings.Count(m, "@") == 1 && !strings.ContainsAny(m, "<>,\r\n ?&%") {
		out = append(out, "mailto:"+m+"?subject=unsubscribe%20"+url.QueryEscape(token))
	}
	return out
}

func (l MailLinks) price(v int64) string {
	if l.Format != nil {
		return l.Format(v)
	}
	return fmt.Sprintf("%d.%02d", v/100, v%100)
}

// Renderer is the outbox Renderer of the alerts' mails. An alert that was
// unsubscribed before its mail went, or a link used or expired, is never
// mailed (a permanent error).
func (s *Service) Renderer(links MailLinks) mail.Renderer {
	return func(ctx context.Context, kind, ref string) (mail.Message, error) {
		shop := "the shop"
		if s.SiteName != nil && s.SiteName() != "" {
			shop = s.SiteName()
		}
		switch kind {
		case MailConfirm, MailBackInStock:
			id, err := strconv.ParseInt(ref, 10, 64)
			if err != nil || id <= 0 {
				return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: bad mail %s %q", kind, ref))
			}
			a, err := s.Store.StockAlert(ctx, id)
			if errors.Is(err, ErrNotFound) {
				return mail.Message{}, mail.Permanent(err)
			}
			if err != nil {
				return mail.Message{}, err
			}
			it, err := s.Store.AlertItem(ctx, a.ProductID)
			if errors.Is(err, ErrUnknownItem) {
				return mail.Message{}, mail.Permanent(err)
			}
			if err != nil {
				return mail.Message{}, err
			}
			if kind == MailConfirm {
				if a.Status != StatusPending || a.ConfirmSealed == "" || !s.now().Before(a.ConfirmExpires) || s.Sealer == nil {
					return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: confirm %d: the link is void", id))
				}
				tok, err := s.Sealer.OpenToken(a.ConfirmSealed, a.ConfirmHash)
				if err != nil || account.HashToken(tok) != a.ConfirmHash {
					return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: confirm %d: the seal does not open", id))
				}
				link := links.base() + ConfirmPath + "?token=" + url.QueryEscape(tok)
				body := fmt.Sprintf("Hello,\n\nSomeone, we hope you, asked %s to email %s when \"%s\" is back in stock.\n\n"+
					"To confirm, open this link (it works once, until %s):\n\n%s\n\n"+
					"If you did not ask for this, ignore this email: nothing more will be sent.\n\nRegards,\n%s\n",
					shop, a.Email, it.Name, a.ConfirmExpires.UTC().Format("January 2, 2006 15:04 MST"), link, shop)
				return mail.Message{To: []string{a.Email}, Subject: fmt.Sprintf("[%s] Confirm your back-in-stock alert", shop), Text: body}, nil
			}
			if a.Status != StatusSent {
				return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: alert %d is %s", id, a.Status))
			}
			tok := s.UnsubscribeToken('a', a.ID)
			lu := links.unsubscribe(tok)
			body := fmt.Sprintf("Hello,\n\nGood news: \"%s\" is back in stock at %s.\n\n%s\n\n"+
				"You asked us to tell you once; this is the only email about it.\n\n"+
				"To stop all back-in-stock emails to this address: %s\n\nRegards,\n%s\n",
				it.Name, shop, links.productURL(it.Slug), lu[0], shop)
			return mail.Message{To: []string{a.Email}, Subject: fmt.Sprintf("[%s] %s is back in stock", shop, it.Name), Text: body, ListUnsubscribe: lu}, nil
		case MailWishlistBack:
			u, item, ok := twoIDs(ref)
			if !ok {
				return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: bad mail %s %q", kind, ref))
			}
			email, p, err := s.optedIn(ctx, u)
			if err != nil {
				return mail.Message{}, err
			}
			if !p.BackInStock {
				return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: customer %d opted out", u))
			}
			it, err := s.Store.AlertItem(ctx, item)
			if errors.Is(err, ErrUnknownItem) {
				return mail.Message{}, mail.Permanent(err)
			}
			if err != nil {
				return mail.Message{}, err
			}
			lu := links.unsubscribe(s.UnsubscribeToken('c', u))
			body := fmt.Sprintf("Hello,\n\n\"%s\", on your wishlist, is back in stock at %s.\n\n%s\n\n"+
				"To stop emails about your wishlist: %s (or change it in My account).\n\nRegards,\n%s\n",
				it.Name, shop, links.productURL(it.Slug), lu[0], shop)
			return mail.Message{To: []string{email}, Subject: fmt.Sprintf("[%s] %s is back in stock", shop, it.Name), Text: body, ListUnsubscribe: lu}, nil
		case MailPriceDrop:
			us, day, ok := strings.Cut(ref, ".")
			u, err := strconv.ParseInt(us, 10, 64)
			if !ok || err != nil || u <= 0 || len(day) != 10 {
				return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: bad mail %s %q", kind, ref))
			}
			email, p, err := s.optedIn(ctx, u)
			if err != nil {
				return mail.Message{}, err
			}
			if !p.PriceDrop {
				return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: customer %d opted out", u))
			}
			drops, err := s.Store.PriceDigest(ctx, u, day)
			if errors.Is(err, ErrNotFound) {
				return mail.Message{}, mail.Permanent(err)
			}
			if err != nil {
				return mail.Message{}, err
			}
			lu := links.unsubscribe(s.UnsubscribeToken('c', u))
			var b strings.Builder
			fmt.Fprintf(&b, "Hello,\n\nPrices fell on your wishlist at %s:\n\n", shop)
			for _, d := range drops {
				fmt.Fprintf(&b, "- %s: %s, was %s\n  %s\n", d.Name, links.price(d.To), links.price(d.From), links.productURL(d.Slug))
			}
			fmt.Fprintf(&b, "\nTo stop emails about your wishlist: %s (or change it in My account).\n\nRegards,\n%s\n", lu[0], shop)
			subject := fmt.Sprintf("[%s] A price fell on your wishlist", shop)
			if len(drops) > 1 {
				subject = fmt.Sprintf("[%s] %d prices fell on your wishlist", shop, len(drops))
			}
			return mail.Message{To: []string{email}, Subject: subject, Text: b.String(), ListUnsubscribe: lu}, nil
		}
		return mail.Message{}, mail.Permanent(fmt.Errorf("alerts: unknown kind %q", kind))
	}
}

func (s *Service) optedIn(ctx context.Context, u int64) (string, Prefs, error) {
	email, err := s.Store.AlertUser(ctx, u)
	if errors.Is(err, ErrNotFound) {
		return "", Prefs{}, mail.Permanent(err)
	}
	if err != nil {
		return "", Prefs{}, err
	}
	p, err := s.Store.AlertPrefs(ctx, u)
	return email, p, err
}

func twoIDs(ref string) (int64, int64, bool) {
	a, b, ok := strings.Cut(ref, ".")
	x, err1 := strconv.ParseInt(a, 10, 64)
	y, err2 := strconv.ParseInt(b, 10, 64)
	return x, y, ok && err1 == nil && err2 == nil && x > 0 && y > 0
}
