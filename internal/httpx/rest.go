package httpx

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Error is the REST error shape shared by every /wp-json route.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// NewError builds an error with data.status set; the message is escaped
// as WordPress escapes it.
func NewError(status int, code, message string) Error {
	return Error{Code: code, Message: html.EscapeString(message), Data: map[string]any{"status": status}}
}

// WriteParamError answers a bad query or body parameter in the Store API's
// rest_invalid_param shape.
func WriteParamError(w http.ResponseWriter, pe ParamError) {
	WriteError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): "+pe.Param,
		map[string]any{"params": map[string]string{pe.Param: pe.Msg}})
}

// WriteErrorRaw writes a REST error whose message already carries WooCommerce's
// HTML entities (WriteError would escape them again).
func WriteErrorRaw(w http.ResponseWriter, status int, code, message string, extra map[string]any) {
	e := Error{Code: code, Message: message, Data: map[string]any{"status": status}}
	for k, v := range extra {
		e.Data[k] = v
	}
	WriteJSON(w, status, e)
}

// RetryAfter is a Retry-After value: whole seconds, at least 1.
func RetryAfter(wait time.Duration) string {
	return strconv.Itoa(max(1, int((wait+time.Second-1)/time.Second)))
}

// SetRetryAfter sets the Retry-After header in whole seconds (at least 1).
func SetRetryAfter(w http.ResponseWriter, wait time.Duration) {
	w.Header().Set("Retry-After", RetryAfter(wait))
}

// WriteError writes the REST error shape.
func WriteError(w http.ResponseWriter, status int, code, message string, extra map[string]any) {
	e := NewError(status, code, message)
	for k, v := range extra {
		e.Data[k] = v
	}
	WriteJSON(w, status, e)
}

func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"code":"internal_error","message":"Could not encode the response.","data":{"status":500}}`, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// ParamError is a bad query parameter, answered with 400 rest_invalid_param.
type ParamError struct{ Param, Msg string }

func (e ParamError) Error() string { return e.Param + ": " + e.Msg }

// Clip shortens a request's value to n bytes (valid UTF-8, with an
// ellipsis when cut) before an answer or a log quotes it.
func Clip(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}

// Query reads and validates query parameters, keeping the first error.
type Query struct {
	Values url.Values
	Err    error
}

func (p *Query) Fail(name, msg string) {
	if p.Err == nil {
		p.Err = ParamError{Param: name, Msg: msg}
	}
}

func (p *Query) Int(name string, def, lo, hi int) int {
	v := p.Values.Get(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.Fail(name, fmt.Sprintf("%s must be between %d (inclusive) and %d (inclusive)", name, lo, hi))
		return def
	}
	return n
}

func (p *Query) Enum(name, def string, allowed ...string) string {
	v := p.Values.Get(name)
	if v == "" {
		return def
	}
	if !slices.Contains(allowed, v) {
		p.Fail(name, fmt.Sprintf("%s is not one of %s.", name, strings.Join(allowed, ", ")))
		return def
	}
	return v
}

func (p *Query) List(name string) []string {
	var out []string
	for _, v := range p.Values[name] {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	for _, v := range p.Values[name+"[]"] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	if len(out) > 100 {
		p.Fail(name, name+" lists more than 100 values.")
		return nil
	}
	return out
}

func (p *Query) IDs(name string) []int64 {
	var out []int64
	for _, v := range p.List(name) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			p.Fail(name, name+" must be a list of positive integers.")
			return nil
		}
		out = append(out, n)
	}
	return out
}

func (p *Query) Bool(name string) *bool {
	v := p.Values.Get(name)
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		p.Fail(name, name+" is not of type boolean.")
		return nil
	}
	return &b
}

func (p *Query) Amount(name string) *int64 {
	v := p.Values.Get(name)
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		p.Fail(name, name+" must be a non-negative amount in minor units.")
		return nil
	}
	return &n
}
