package account

import (
	"testing"

	"github.com/alexedwards/argon2id"
)

// BenchmarkHash is the cost of one password hash with HashParams (a login
// costs one hash: a compare computes the same).
func BenchmarkHash(b *testing.B) {
	b.ReportMetric(float64(HashParams.Memory)/1024, "MiB")
	for b.Loop() {
		if _, err := HashPassword("correct horse battery"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHashParams(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	p, _, _, err := argon2id.DecodeHash(h)
	if err != nil || *p != *HashParams {
		t.Fatalf("hash %s has %+v, want %+v (%v)", h, p, HashParams, err)
	}
	if !checkPassword("correct horse battery", h) || checkPassword("correct horse batterY", h) || checkPassword("x", "") || checkPassword("x", "garbage") {
		t.Error("checkPassword")
	}
}
