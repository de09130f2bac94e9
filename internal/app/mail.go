package app

import (
	"context"
	"log/slog"

	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/contact"
	"vitrine/internal/mail"
	"vitrine/internal/privacy"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/support"
	"vitrine/internal/webhook"
)

// startMail starts the mail outbox worker when SMTP is configured. Without
// --smtp-url the order emails stay queued in the outbox (nothing is lost)
// and go out once SMTP is configured and the shop restarted.
func startMail(ctx context.Context, cfg Config, db *sqlstore.DB, srv *server.Server, log *slog.Logger) error {
	var sender mail.Sender // an untyped nil when SMTP is not configured
	shopTo := cfg.ShopEmail
	if cfg.SMTPURL != "" {
		sc, err := mail.ParseSMTPURL(cfg.SMTPURL)
		if err != nil {
			return err
		}
		s, err := mail.NewSMTPSender(sc)
		if err != nil {
			return err
		}
		sender = s
		if shopTo == "" {
			shopTo = sc.From
		}
	}
	var to []string
	if shopTo != "" {
		to = []string{shopTo}
	}
	orders := mail.OrderRenderer(srv.OrderMailView, to)
	kinds := mail.Renderers{mail.KindOrderConfirmation: orders, mail.KindNewOrder: orders,
		mail.KindOrderCompleted: orders, mail.KindOrderRefunded: orders,
		mail.KindCustomerNote: mail.CustomerNoteRenderer(srv.CustomerNoteMailView),
		support.KindMessage:   support.Renderer(db, to), mail.KindAccountCodeReused: mail.CodeReusedRenderer(srv.AccountOwnerView),
		contact.KindMessage: srv.Contact().Renderer(to, cfg.SiteName), contact.KindReply: srv.Contact().ReplyRenderer(to, cfg.SiteName),
		webhook.KindDisabled: webhook.Renderer(srv.Webhooks().Get, to, cfg.SiteName)}
	privacyMail := srv.Privacy().Renderer(cfg.BaseURL)
	for _, k := range privacy.MailKinds {
		kinds[k] = privacyMail
	}
	alertsMail := srv.Alerts().Renderer(alerts.MailLinks{BaseURL: cfg.BaseURL, Mailto: srv.ShopEmail})
	for _, k := range alerts.MailKinds {
		kinds[k] = alertsMail
	}
	accounts := mail.AccountRenderer(srv.AccountMailView)
	for _, k := range account.MailKinds {
		kinds[k] = accounts
	}
	outbox := mail.NewOutbox(db, sender, kinds.Render, log, mail.Options{})
	srv.SetMailKick(outbox.Kick)
	srv.SetMailSender(sender)
	go outbox.Run(ctx)
	return nil
}
