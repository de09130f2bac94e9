package currency

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"time"

	"vitrine/internal/money"
)

// Rate file formats.
const (
	FormatECB = "ecb" // the ECB's euro reference rates XML (daily or history)
	FormatCSV = "csv" // code,rate[,date] against the shop's base
)

// MaxRateFile bounds a rates file (the ECB's full history is about 7 MB).
const MaxRateFile = 16 << 20

// ImportResult reports an import.
type ImportResult struct {
	Format   string
	Recorded int      // rates added to the history
	Updated  []string // configured currencies whose current rate changed
	Unknown  []string // codes in the file the shop does not sell in (history only)
	Stale    []string // configured currencies whose current rate is newer than the file's
	Date     string   // the newest date in the file
}

// FileError is a rates file refused for its content (the import changed
// nothing); other errors are the store's.
type FileError struct{ Err error }

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// DetectFormat guesses a rates file's format from its first bytes.
func DetectFormat(head []byte) string {
	if t := bytes.TrimSpace(head); bytes.HasPrefix(t, []byte("<")) {
		return FormatECB
	}
	return FormatCSV
}

// ImportRates reads a rates file (format FormatECB, FormatCSV or "" to
// detect it), records every rate in the history against the shop's base,
// and moves the current rate of the configured currencies to the file's
// newest (never back to an older date than they have). Rates of
// currencies the shop does not sell in are recorded and reported as
// unknown. A file with any bad line changes nothing.
func (s *Service) ImportRates(ctx context.Context, r io.Reader, format string) (ImportResult, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxRateFile+1))
	if format == "" {
		head, _ := br.Peek(512)
		format = DetectFormat(head)
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return ImportResult{}, err
	}
	if len(data) > MaxRateFile {
		return ImportResult{}, &FileError{fmt.Errorf("the rates file is larger than %d MB", MaxRateFile>>20)}
	}
	var recs []RateRecord
	switch format {
	case FormatECB:
		recs, err = parseECB(data, s.Base.Code)
	case FormatCSV:
		recs, err = parseCSV(data, s.Base.Code, s.now().Format(time.DateOnly))
	default:
		err = fmt.Errorf("unknown rates format %q: use ecb or csv", format)
	}
	if err == nil && len(recs) == 0 {
		err = errors.New("the file holds no rates")
	}
	if err != nil {
		return ImportResult{}, &FileError{err}
	}
	res := ImportResult{Format: format, Recorded: len(recs)}
	configured, err := s.all(ctx)
	if err != nil {
		return res, err
	}
	byCode := map[string]Currency{}
	for _, c := range configured {
		byCode[c.Code] = c
	}
	latest := map[string]RateRecord{}
	for _, rec := range recs {
		if rec.Date > res.Date {
			res.Date = rec.Date
		}
		if l, ok := latest[rec.Code]; !ok || rec.Date > l.Date {
			latest[rec.Code] = rec
		}
	}
	current := map[string]RateRecord{}
	for code, rec := range latest {
		c, ok := byCode[code]
		switch {
		case !ok:
			res.Unknown = append(res.Unknown, code)
		case c.RateDate > rec.Date:
			res.Stale = append(res.Stale, code)
		default:
			current[code] = rec
			if c.Rate != rec.Rate || c.RateDate != rec.Date {
				res.Updated = append(res.Updated, code)
			}
		}
	}
	slices.Sort(res.Unknown)
	slices.Sort(res.Stale)
	slices.Sort(res.Updated)
	if err := s.Store.RecordRates(ctx, recs, current, s.now()); err != nil {
		return res, err
	}
	s.log().Info("exchange rates imported", "format", format, "recorded", res.Recorded, "updated", res.Updated, "unknown", len(res.Unknown), "date", res.Date)
	return res, nil
}

// The ECB's file: <gesmes:Envelope><Cube><Cube time="2024-05-10"><Cube
// currency="USD" rate="1.0775"/>…</Cube>…</Cube></gesmes:Envelope>, rates
// in units of the currency for 1 EUR.
type ecbEnvelope struct {
	Days []struct {
		Time  string `xml:"time,attr"`
		Rates []struct {
			Currency string `xml:"currency,attr"`
			Rate     string `xml:"rate,attr"`
		} `xml:"Cube"`
	} `xml:"Cube>Cube"`
}

// parseECB reads the ECB's XML and rebases its rates from EUR to base:
// rate(X per base) = rate(X per EUR) / rate(base per EUR), rounded to
// RebaseDigits significant digits. A day without a rate for base is an
// error (the file cannot say what base is worth).
func parseECB(data []byte, base string) ([]RateRecord, error) {
	var env ecbEnvelope
	if err := xml.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("not the ECB's rates XML: %w", err)
	}
	if len(env.Days) == 0 {
		return nil, errors.New("not the ECB's rates XML: no <Cube time=…> element")
	}
	var out []RateRecord
	for _, day := range env.Days {
		if _, err := time.Parse(time.DateOnly, day.Time); err != nil {
			return nil, fmt.Errorf("ECB file: day %q is not a date (YYYY-MM-DD)", day.Time)
		}
		perEUR := map[string]*big.Rat{"EUR": big.NewRat(1, 1)}
		var codes []string
		for _, r := range day.Rates {
			code := strings.ToUpper(strings.TrimSpace(r.Currency))
			rate, err := ParseRate(r.Rate)
			if err != nil {
				return nil, fmt.Errorf("ECB file, %s %s: %w", day.Time, code, err)
			}
			if len(code) != 3 {
				return nil, fmt.Errorf("ECB file, %s: %q is not a currency code", day.Time, r.Currency)
			}
			if _, dup := perEUR[code]; dup {
				return nil, fmt.Errorf("ECB file, %s: %s appears twice", day.Time, code)
			}
			perEUR[code] = rate.Rat()
			codes = append(codes, code)
		}
		baseRate, ok := perEUR[base]
		if !ok {
			return nil, fmt.Errorf("ECB file, %s: no rate for the base currency %s", day.Time, base)
		}
		codes = append(codes, "EUR")
		for _, code := range codes {
			if code == base {
				continue
			}
			rate, err := RateFromRat(new(big.Rat).Quo(perEUR[code], baseRate), RebaseDigits)
			if err != nil {
				return nil, fmt.Errorf("ECB file, %s %s rebased to %s: %w", day.Time, code, base, err)
			}
			out = append(out, RateRecord{Code: code, BaseCode: base, Rate: rate, Date: day.Time, Source: SourceECB})
		}
	}
	return out, nil
}

// parseCSV reads lines "code,rate[,date]" (rate: units of code for 1
// base; date YYYY-MM-DD, default today), with an optional header line.
// A line for the base itself must say 1 and is skipped.
func parseCSV(data []byte, base, today string) ([]RateRecord, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.Comment = '#'
	var out []RateRecord
	seen := map[string]bool{}
	first := true
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("CSV: %w", err)
		}
		line, _ := cr.FieldPos(0)
		isFirst := first
		first = false
		if len(rec) < 2 || len(rec) > 3 {
			return nil, fmt.Errorf("CSV line %d: want code,rate[,date], got %d fields", line, len(rec))
		}
		code := strings.ToUpper(strings.TrimSpace(rec[0]))
		if _, known := money.Lookup(code); isFirst && !known {
			if _, err := ParseRate(rec[1]); err != nil {
				continue // a header line ("code,rate,date")
			}
		}
		if _, ok := money.Lookup(code); !ok {
			return nil, fmt.Errorf("CSV line %d: %q is not a known currency code", line, rec[0])
		}
		rate, err := ParseRate(rec[1])
		if err != nil {
			return nil, fmt.Errorf("CSV line %d: %w", line, err)
		}
		date := today
		if len(rec) == 3 && strings.TrimSpace(rec[2]) != "" {
			date = strings.TrimSpace(rec[2])
			if _, err := time.Parse(time.DateOnly, date); err != nil {
				return nil, fmt.Errorf("CSV line %d: date %q: use YYYY-MM-DD", line, rec[2])
			}
		}
		if code == base {
			if rate != One {
				return nil, fmt.Errorf("CSV line %d: %s is the base currency: its rate must be 1, not %s", line, code, rate)
			}
			continue
		}
		key := code + "@" + date
		if seen[key] {
			return nil, fmt.Errorf("CSV line %d: %s appears twice for %s", line, code, date)
		}
		seen[key] = true
		out = append(out, RateRecord{Code: code, BaseCode: base, Rate: rate, Date: date, Source: SourceCSV})
	}
	return out, nil
}
