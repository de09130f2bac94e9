// Package mailtest is a real SMTP server (github.com/emersion/go-smtp) for
// tests: it listens on loopback in the test process and keeps every message
// it receives, so a test can read what the shop really sent.
package mailtest

import (
	"crypto/tls"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Delivered is one message an in-process SMTP server received.
type Delivered struct {
	From string
	To   []string
	User string // the authenticated user, if any
	TLS  bool   // whether the session ran over TLS
	Data []byte
}

// Sink is a real SMTP server (github.com/emersion/go-smtp) on loopback that
// keeps what it receives.
type Sink struct {
	mu       sync.Mutex
	msgs     []Delivered
	srv      *smtp.Server
	Addr     string // host:port it listens on
	user     string // when set, AUTH PLAIN with user/pass is required
	pass     string
	arrived  chan struct{}
	stopOnce sync.Once
}

type Options struct {
	Addr        string      // listen address; "" means 127.0.0.1:0
	User, Pass  string      // require AUTH PLAIN
	TLS         *tls.Config // offer STARTTLS
	ImplicitTLS bool        // TLS from the first byte
}

func Start(t testing.TB, o Options) *Sink {
	t.Helper()
	s := &Sink{user: o.User, pass: o.Pass, arrived: make(chan struct{}, 1000)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &sinkSession{sink: s, tls: isTLS, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.MaxMessageBytes = 1 << 20
	srv.MaxRecipients = 10
	srv.AllowInsecureAuth = o.TLS == nil
	srv.TLSConfig = o.TLS
	addr := o.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var l net.Listener
	var err error
	// The address of a server that was down may take a moment to be free.
	for i := 0; i < 50; i++ {
		if l, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("smtp sink listen: %v", err)
	}
	if o.ImplicitTLS {
		l = tls.NewListener(l, o.TLS)
	}
	s.srv, s.Addr = srv, l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(s.Stop)
	return s
}

func (s *Sink) Stop() { s.stopOnce.Do(func() { _ = s.srv.Close() }) }

func (s *Sink) Port(t testing.TB) int {
	_, p, _ := net.SplitHostPort(s.Addr)
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (s *Sink) Messages() []Delivered {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivered(nil), s.msgs...)
}

// WaitFor waits until the sink holds n messages (failing after 20 s).
func (s *Sink) WaitFor(t testing.TB, n int) []Delivered {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if m := s.Messages(); len(m) >= n {
			return m
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("smtp sink: %d messages arrived, want %d", len(s.Messages()), n)
		}
	}
}

type sinkSession struct {
	sink *Sink
	conn *smtp.Conn
	tls  bool
	user string
	from string
	to   []string
}

func (ss *sinkSession) AuthMechanisms() []string {
	if ss.sink.user == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *sinkSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != ss.sink.user || password != ss.sink.pass {
			return smtp.ErrAuthFailed
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	if ss.sink.user != "" && ss.user == "" {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *sinkSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := ss.conn.TLSConnectionState()
	ss.sink.mu.Lock()
	ss.sink.msgs = append(ss.sink.msgs, Delivered{From: ss.from, To: ss.to, User: ss.user, TLS: isTLS || ss.tls, Data: b})
	ss.sink.mu.Unlock()
	// A wake-up for WaitFor; when 1,000 are pending already, it has enough
	// (it counts the messages on each), so a sink taking more never blocks.
	select {
	case ss.sink.arrived <- struct{}{}:
	default:
	}
	return nil
}

func (ss *sinkSession) Reset()        { ss.from, ss.to = "", nil }
func (ss *sinkSession) Logout() error { return nil }
