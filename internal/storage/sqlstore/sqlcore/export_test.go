package sqlcore

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// CountsStatements reports whether the store's pools run on the counting
// wrapper.
func (db *DB) CountsStatements(ctx context.Context) (read, write bool, err error) {
	check := func(p *sqlx.DB) (counted bool, err error) {
		conn, err := p.Conn(ctx)
		if err != nil {
			return false, err
		}
		defer conn.Close()
		err = conn.Raw(func(dc any) error { _, counted = underHealth(dc).(*countConn); return nil })
		return counted, err
	}
	if read, err = check(db.Read); err != nil {
		return
	}
	write, err = check(db.Write)
	return
}

// underHealth is the connection under the health wrapper (health.go),
// which every pool puts outermost.
func underHealth(dc any) any {
	if hc, ok := dc.(*healthConn); ok {
		return hc.Conn
	}
	return dc
}
