package server

import (
	"context"
	"time"

	"vitrine/internal/adminapi"
	"vitrine/internal/checkout"
	"vitrine/internal/mail"
	"vitrine/internal/ordermail"
	"vitrine/internal/pages"
)

// The shop's mail as the server composes it: the outbox's kick, the
// admin's test message, and the order emails' views.

// SetMailKick sets what the server calls after a change that queued mail
// (the outbox worker's Kick), so the message goes out at once instead of on
// the next poll.
func (s *Server) SetMailKick(kick func()) { s.mailKick = kick }

// SetMailSender gives the admin's test message (settings' "send a test
// message") the shop's SMTP sender; nil when mail is not configured. Like
// SetMailKick it is called once, before the shop serves.
func (s *Server) SetMailSender(m mail.Sender) { s.mailSender = m }

// sendTestMail sends the admin's test message now, not through the
// outbox: the point is to see the SMTP server's answer.
func (s *Server) sendTestMail(ctx context.Context, to string) error {
	if s.mailSender == nil {
		return adminapi.ErrMailOff
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	name := s.siteName()
	return s.mailSender.Send(ctx, mail.Message{To: []string{to}, Subject: "[" + name + "] Test message",
		Text: "This is a test message from " + name + "'s admin (" + s.cfg.BaseURL + ").\n\nIf you can read it, the shop's mail works.\n"})
}

// kickMail wakes this instance's mail worker after a commit that queued
// mail, and its webhook worker: the same commits (an order placed, paid,
// changed) queue their webhook deliveries.
func (s *Server) kickMail() {
	if s.mailKick != nil {
		s.mailKick()
	}
	s.hookWorker.Kick()
}

// OrderMailView and CustomerNoteMailView are the order emails' views
// (internal/ordermail) the mail worker renders through.
func (s *Server) OrderMailView(ctx context.Context, id int64) (mail.OrderView, error) {
	return s.orderMail.Order(ctx, id)
}

func (s *Server) CustomerNoteMailView(ctx context.Context, noteID int64) (mail.OrderView, error) {
	return s.orderMail.CustomerNote(ctx, noteID)
}

// initOrderMail composes the order emails' views over the orders service.
func (s *Server) initOrderMail() {
	s.orderMail = ordermail.New(ordermail.Deps{
		Orders:       s.orders,
		PaymentTexts: func(o *checkout.Order) (string, []pages.BankAccountView) { return s.front.PaymentTexts(o) },
		TestNotice:   testOrderNotice,
		SiteName:     s.siteName,
		BaseURL:      s.cfg.BaseURL,
		BaseCountry:  s.cfg.Checkout.BaseCountry,
	})
}
