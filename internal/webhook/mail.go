package webhook

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"vitrine/internal/mail"
)

// KindDisabled is the mail telling staff a webhook was disabled after
// MaxFailures failed deliveries in a row; ref is the webhook's id.
const KindDisabled = "webhook_disabled"

// Renderer renders KindDisabled for the shop's addresses (to).
func Renderer(load func(ctx context.Context, id int64) (*Hook, error), to []string, siteName string) mail.Renderer {
	return func(ctx context.Context, kind, ref string) (mail.Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil || id <= 0 || kind != KindDisabled {
			return mail.Message{}, mail.Permanent(fmt.Errorf("webhook mail: bad %s ref %q", kind, ref))
		}
		if len(to) == 0 {
			return mail.Message{}, mail.Permanent(errors.New("webhook mail: no shop address to notify"))
		}
		h, err := load(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return mail.Message{}, mail.Permanent(err)
		}
		if err != nil {
			return mail.Message{}, err
		}
		text := fmt.Sprintf("The webhook %q (%s, to %s) failed %d deliveries in a row and was disabled.\n\n"+
			"Its delivery log is at /wp-json/wc/v3/webhooks/%d/deliveries. Once the receiving end works again, set the webhook's status back to active.\n",
			h.Name, h.Topic, h.DeliveryURL, MaxFailures, h.ID)
		return mail.Message{To: to, Subject: "[" + siteName + "] Webhook disabled: " + h.Name, Text: text}, nil
	}
}
