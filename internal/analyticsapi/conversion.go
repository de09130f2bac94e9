package analyticsapi

import (
	"context"

	"vitrine/internal/analytics"
)

// ConversionStat is the conversion rate's performance indicator: orders ÷
// sessions over the range, as a percentage (format "percent"), null when
// no session was counted. WooCommerce has no such indicator; the entry has
// its shape (stat, chart, label, format, value, _links), its report the
// orders'.
const ConversionStat = "orders/conversion"

var conversionIndicator = indicator{"Conversion rate", "percent", "orders"}

// conversion is the indicator's value for the stats st computed.
func (a *API) conversion(ctx context.Context, st analytics.Stats) (any, error) {
	c, err := a.d.Analytics.Conversion(ctx, st.Period, st.Totals.OrdersCount)
	if err != nil || c.Rate == nil {
		return nil, err
	}
	return *c.Rate, nil
}
