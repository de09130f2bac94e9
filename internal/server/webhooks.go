package server

import (
	"context"

	"vitrine/internal/webhook"
)

// Webhooks (internal/webhook): the service behind the admin API's
// /wp-json/wc/v3/webhooks routes and the worker that delivers the queue,
// one per instance (Start runs it). Bodies are the admin API's JSON of
// the resource (adminapi.WebhookPayload).

// initWebhooks builds the service and the worker; the admin API (built
// next) serves the routes and makes the bodies.
func (s *Server) initWebhooks() {
	opts := s.cfg.Webhooks
	opts.AllowPrivate = opts.AllowPrivate || s.cfg.WebhooksAllowPrivate
	if opts.Source == "" {
		opts.Source = s.cfg.BaseURL
	}
	payload := func(ctx context.Context, resource string, id int64) ([]byte, error) {
		return s.admin.WebhookPayload(ctx, resource, id)
	}
	s.hookWorker = webhook.NewWorker(s.db, payload, s.log, opts)
	s.webhooks = &webhook.Service{Store: s.db, AllowPrivate: opts.AllowPrivate, Kick: s.hookWorker.Kick, Now: s.now, Log: s.log}
}

// Webhooks is the webhook service (the binary's mail renderer loads a
// disabled webhook through it).
func (s *Server) Webhooks() *webhook.Service { return s.webhooks }

// WebhookWorker is this instance's delivery worker (tests run it).
func (s *Server) WebhookWorker() *webhook.Worker { return s.hookWorker }
