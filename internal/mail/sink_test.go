package mail_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// delivered is one message an in-process SMTP server received.
type delivered struct {
	From string
	To   []string
	User string // the authenticated user, if any
	TLS  bool   // whether the session ran over TLS
	Data []byte
}

// sink is a real SMTP server (github.com/emersion/go-smtp) on loopback that
// keeps what it receives.
type sink struct {
	mu       sync.Mutex
	msgs     []delivered
	srv      *smtp.Server
	addr     string
	user     string // when set, AUTH PLAIN with user/pass is required
	pass     string
	arrived  chan struct{}
	stopOnce sync.Once
}

type sinkOptions struct {
	addr        string      // listen address; "" means 127.0.0.1:0
	user, pass  string      // require AUTH PLAIN
	tls         *tls.Config // offer STARTTLS
	implicitTLS bool        // TLS from the first byte
}

func startSink(t *testing.T, o sinkOptions) *sink {
	t.Helper()
	s := &sink{user: o.user, pass: o.pass, arrived: make(chan struct{}, 1000)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &sinkSession{sink: s, tls: isTLS, conn: c}, nil
	}))
	srv.Domain = "localhost"
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.MaxMessageBytes = 1 << 20
	srv.MaxRecipients = 10
	srv.AllowInsecureAuth = o.tls == nil
	srv.TLSConfig = o.tls
	addr := o.addr
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
	if o.implicitTLS {
		l = tls.NewListener(l, o.tls)
	}
	s.srv, s.addr = srv, l.Addr().String()
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(s.stop)
	return s
}

func (s *sink) stop() { s.stopOnce.Do(func() { _ = s.srv.Close() }) }

func (s *sink) port(t *testing.T) int {
	_, p, _ := net.SplitHostPort(s.addr)
	n, err := strconv.Atoi(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (s *sink) messages() []delivered {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]delivered(nil), s.msgs...)
}

// waitFor waits until the sink holds n messages (failing after 20 s).
func (s *sink) waitFor(t *testing.T, n int) []delivered {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if m := s.messages(); len(m) >= n {
			return m
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("smtp sink: %d messages arrived, want %d", len(s.messages()), n)
		}
	}
}

type sinkSession struct {
	sink *sink
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
	ss.sink.msgs = append(ss.sink.msgs, delivered{From: ss.from, To: ss.to, User: ss.user, TLS: isTLS || ss.tls, Data: b})
	ss.sink.mu.Unlock()
	ss.sink.arrived <- struct{}{}
	return nil
}

func (ss *sinkSession) Reset()        { ss.from, ss.to = "", nil }
func (ss *sinkSession) Logout() error { return nil }

// freePort returns a loopback port nothing listens on (an SMTP server that
// is down).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return p
}

// selfSigned makes a certificate for 127.0.0.1 and localhost, returning the
// server's TLS config and a pool that trusts it.
func selfSigned(t *testing.T) (*tls.Config, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "vitrine test smtp"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}}, MinVersion: tls.VersionTLS12}, pool
}

var errTransient = errors.New("store briefly unavailable")
