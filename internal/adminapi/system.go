package adminapi

import (
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/webhook"
)

// System status: WooCommerce REST v3's GET /system_status, the parts that
// mean something for this shop (reference:
// woocommerce-11-responses/wc-v3-system_status.http). WordPress's
// plugins, theme, pages and post counts have no equivalent: they answer
// empty, with WooCommerce's keys, so tools that read them do not break.

// SystemInfo is what the server tells of itself (Deps.System).
type SystemInfo struct {
	Version       string // the binary's
	Engine        string // sqlite or postgres
	EngineVersion string
	SchemaVersion int64 // the newest migration applied
}

// GET /wp-json/wc/v3/system_status
func (a *API) systemStatus(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var info SystemInfo
	if a.d.System != nil {
		var err error
		if info, err = a.d.System(r.Context()); err != nil {
			return err
		}
	}
	https := strings.HasPrefix(a.d.BaseURL, "https://")
	c := a.d.Base
	WriteJSON(w, http.StatusOK, map[string]any{
		"environment": map[string]any{
			"home_url": a.d.BaseURL, "site_url": a.d.BaseURL,
			"version":         webhook.WooCommerceVersion, // the API the shop answers as
			"vitrine_version": info.Version,
			"server_info":     "Vitrine/" + info.Version,
			"wp_version":      webhook.WordPressVersion,
			"wp_multisite":    false, "wp_debug_mode": false, "wp_cron": false,
			"wp_environment_type": "production", "language": "en_US",
		},
		"database": map[string]any{
			"wc_database_version":    strconv.FormatInt(info.SchemaVersion, 10),
			"database_prefix":        "",
			"maxmind_geoip_database": "",
			"database_tables":        map[string]any{"woocommerce": map[string]any{}, "other": map[string]any{}},
			"vitrine_engine":         info.Engine,
			"vitrine_engine_version": info.EngineVersion,
		},
		"active_plugins":     []any{},
		"inactive_plugins":   []any{},
		"dropins_mu_plugins": map[string]any{"dropins": []any{}, "mu_plugins": []any{}},
		"theme":              map[string]any{"name": "Vitrine", "version": info.Version, "is_child_theme": false, "is_block_theme": false, "has_woocommerce_support": true, "overrides": []any{}},
		"settings": map[string]any{
			"api_enabled": true, "force_ssl": https,
			"currency": c.Code, "currency_symbol": c.Symbol, "currency_position": c.Position(),
			"thousand_separator": c.ThousandSeparator, "decimal_separator": c.DecimalSeparator, "number_of_decimals": c.MinorUnit,
			"geolocation_enabled": false,
			"taxonomies":          map[string]string{"external": "external", "grouped": "grouped", "simple": "simple", "variable": "variable"},
		},
		"security":         map[string]any{"secure_connection": https, "hide_errors": true},
		"pages":            []any{},
		"post_type_counts": []any{},
		"logging":          map[string]any{"logging_enabled": true, "default_handler": "stderr (structured)", "retention_period_days": 0, "level_threshold": "", "log_directory_size": ""},
	})
	return nil
}
