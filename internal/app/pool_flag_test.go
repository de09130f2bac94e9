package app

import (
	"context"
	"os"
	"strings"
	"testing"

	"vitrine/internal/storage/storetest"
)

func TestPoolFlags(t *testing.T) {
	c, err := parseFlags([]string{"--db-max-conns", "12"}, map[string]string{"VITRINE_DB_MAX_IDLE_CONNS": "3"})
	if err != nil || c.DBMaxConns != 12 || c.DBMaxIdleConns != 3 {
		t.Fatalf("parse: %+v %v", c, err)
	}
	if c, err := parseFlags(nil, nil); err != nil || c.DBMaxConns != 0 || c.DBMaxIdleConns != 0 {
		t.Fatalf("defaults: %d %d %v", c.DBMaxConns, c.DBMaxIdleConns, err)
	}
	for _, bad := range [][]string{{"--db-max-conns", "-1"}, {"--db-max-idle-conns", "-2"}, {"--db-max-conns", "20000"}} {
		if _, err := parseFlags(bad, nil); err == nil || !strings.Contains(err.Error(), "db-max") {
			t.Errorf("%v: err %v, want a db-max error", bad, err)
		}
	}
	if os.Getenv(storetest.EnvPostgres) == "" {
		return
	}
	// The store opened by the app takes the sizes.
	c.DB = storetest.DSN(t, "postgres")
	db, err := openStore(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, w := db.Stats()
	if w.MaxOpenConnections != 12 {
		t.Errorf("max open %d, want 12", w.MaxOpenConnections)
	}
}
