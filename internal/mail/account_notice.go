package mail

import (
	"context"
	"fmt"
	htmltemplate "html/template"
	"strconv"
	"strings"
	texttemplate "text/template"
	"time"
)

// OwnerView is what a security notice (KindAccountCodeReused) shows of its owner, already
// formatted; every string is text (the HTML part escapes it).
type OwnerView struct {
	ShopName string
	Email    string
	// Name greets the owner ("Hi Ada,"); empty greets without a name.
	Name string
	// SecurityURL is the account's security page (change the password,
	// turn two-factor off and on again for a new secret).
	SecurityURL string
}

// OwnerLoader returns the owner of an account for its notices, or an
// error wrapping ErrNotFound when the account is gone.
type OwnerLoader func(ctx context.Context, userID int64) (OwnerView, error)

// codeReusedPage is what the code-reused templates execute on. The layout
// reads ShopName, Subject, Heading and TestNotice.
type codeReusedPage struct {
	OwnerView
	Subject    string
	Heading    string
	TestNotice string
	// When is the replay's time, in UTC ("November 23, 2026 at 14:05 UTC").
	When string
}

var codeReusedTemplates = kindTemplates{
	html: htmltemplate.Must(htmltemplate.New(KindAccountCodeReused).ParseFS(templateFS,
		"templates/layout.html", "templates/"+KindAccountCodeReused+".html")),
	text: texttemplate.Must(texttemplate.New(KindAccountCodeReused).ParseFS(templateFS,
		"templates/"+KindAccountCodeReused+".txt")),
}

// CodeReusedRenderer renders KindAccountCodeReused: ref is
// "<user id>.<unix time>". A malformed ref or a deleted account is
// permanent; other loader errors are retried.
func CodeReusedRenderer(load OwnerLoader) Renderer {
	return func(ctx context.Context, kind, ref string) (Message, error) {
		if kind != KindAccountCodeReused {
			return Message{}, Permanent(fmt.Errorf("mail: unknown kind %q", kind))
		}
		idText, atText, ok := strings.Cut(ref, ".")
		id, err1 := strconv.ParseInt(idText, 10, 64)
		at, err2 := strconv.ParseInt(atText, 10, 64)
		if !ok || err1 != nil || err2 != nil || id <= 0 {
			return Message{}, Permanent(fmt.Errorf("mail: %s: bad ref %q", kind, ref))
		}
		v, err := loadFor(ctx, load, kind, "account", id)
		if err != nil {
			return Message{}, err
		}
		return CodeReused(v, time.Unix(at, 0))
	}
}

// CodeReused renders the notice that a two-factor code already used to
// log in to v's account was entered again: whoever did saw the code, so
// the owner should change the password.
func CodeReused(v OwnerView, at time.Time) (Message, error) {
	p := codeReusedPage{OwnerView: v, Subject: oneLine(fmt.Sprintf("[%s] A used security code was entered again", v.ShopName)),
		Heading: "A used security code was entered again", When: at.UTC().Format("January 2, 2006 at 15:04 UTC")}
	return codeReusedTemplates.render(KindAccountCodeReused, p, p.Subject, v.Email)
}
