package app

import "testing"

// --webhooks-allow-private is off unless set, by flag or environment.
func TestWebhooksAllowPrivateFlag(t *testing.T) {
	if c, err := parseFlags(nil, nil); err != nil || c.WebhooksAllowPrivate {
		t.Fatalf("default: %v %v", c.WebhooksAllowPrivate, err)
	}
	if c, err := parseFlags([]string{"--webhooks-allow-private"}, nil); err != nil || !c.WebhooksAllowPrivate {
		t.Fatalf("flag: %v %v", c.WebhooksAllowPrivate, err)
	}
	if c, err := parseFlags(nil, map[string]string{"VITRINE_WEBHOOKS_ALLOW_PRIVATE": "true"}); err != nil || !c.WebhooksAllowPrivate {
		t.Fatalf("env: %v %v", c.WebhooksAllowPrivate, err)
	}
}
