// Package mysqlstore is the MySQL/MariaDB lease store (worker=mysql://… or
// mariadb://…; MySQL ≥ 8.0, MariaDB ≥ 10.6 for SKIP LOCKED): one row per
// (pool, datacenter, worker) in one InnoDB table (idgen_lease, or
// lease_table=), created on first use unless it exists. A DBA may create it
// beforehand for a user that may only SELECT, INSERT and UPDATE it; Open
// then creates nothing, and says what to create and grant when it is
// missing and the user cannot create it:
//
//	pool, datacenter, worker   the pair (primary key)
//	holder                     the holder's random token @ host:pid; NULL when free
//	expires_at                 the lease expiry, UTC in database time; NULL when free
//	issued_up_to, backwards    the record
//	next_seq                   the record's sequence after a clean release (seq.go)
//
// As in the PostgreSQL store (pgstore), expiries are rounded up to bucket
// boundaries of lease_ttl/4, computed by the server from UTC_TIMESTAMP(6)
// (whatever the session's time zone); a taker claims a free or expired row
// with SELECT … FOR UPDATE SKIP LOCKED in a READ COMMITTED transaction, so
// racing takers never wait on each other nor lock rows they pass over;
// renewals and releases update the row only while it still carries the
// holder's token (the connection reports matched rows, not changed ones).
// A row is Fresh only when the taker made it; until its first renewal a
// claim keeps its row from expiring by itself.
package mysqlstore

import (
	"context"
	"crypto/tls"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// DefaultTable is the table name without lease_table=.
const DefaultTable = "idgen_lease"

// Server error numbers the store tells apart.
const (
	errAccessDenied   = 1045 // wrong user or password
	errDBAccess       = 1044 // no access to the database
	errBadDB          = 1049 // unknown database
	errTableExists    = 1050
	errDupKey         = 1062
	errTableDenied    = 1142 // SELECT/INSERT/UPDATE/CREATE command denied
	errLockWait       = 1205
	errDeadlock       = 1213
	errTableDefChange = 1412
)

// Store is a small pool of connections to one database.
type Store struct {
	url   *storeurl.StoreURL
	db    *sql.DB
	table string // quoted
	plain string
	ttl   time.Duration
	seq   bool // the table has next_seq (an older table may not: see seq.go)
	done  chan struct{}
	once  sync.Once
}

// Interval and Expiry are the SQL stores' buckets (sqlclaim's).
var (
	Interval = sqlclaim.Interval
	Expiry   = sqlclaim.Expiry
)

type quiet struct{}

func (quiet) Print(...any) {}

// connect makes the connection pool and checks that it reaches the
// database.
func connect(ctx context.Context, u *storeurl.StoreURL, table string, ttl time.Duration) (*Store, error) {
	if table == "" {
		table = DefaultTable
	}
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = u.User, u.Password, "tcp", u.Servers[0], u.Database
	cfg.Timeout = ttl + 2*time.Second
	cfg.ReadTimeout, cfg.WriteTimeout = ttl+5*time.Second, ttl+5*time.Second
	cfg.ClientFoundRows = true   // a renewal that changes nothing still matched the row
	cfg.InterpolateParams = true // one round trip a statement, no server-side prepares
	cfg.Logger = quiet{}         // the library never writes to the application's stderr
	// A statement never waits on a row lock longer than about lease_ttl.
	cfg.Params = map[string]string{"innodb_lock_wait_timeout": strconv.FormatInt(max(1, int64(ttl/time.Second)), 10)}
	if u.TLS {
		cfg.TLSConfig = "true"
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, errs.New(errs.ErrWorker, "%s: %s", u.Where, redact(u, err.Error()))
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(2)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, explainConnect(u, err)
	}
	return &Store{url: u, db: db, table: quoteIdent(table), plain: table, ttl: ttl, done: make(chan struct{})}, nil
}

// quoteIdent quotes an identifier (config checked it is plain already).
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func redact(u *storeurl.StoreURL, msg string) string { return u.Scrub(msg) }

// explainConnect names what failed without the password.
func explainConnect(u *storeurl.StoreURL, err error) error {
	return errs.New(errs.ErrWorker, "%s: %s", u.Where, reason(u, err))
}

// reason says why a connection or a statement failed, without the
// password: refused, no answer, authentication, or the server's message.
func reason(u *storeurl.StoreURL, err error) string {
	var me *mysql.MySQLError
	var ne net.Error
	var ce *tls.CertificateVerificationError
	switch {
	case errors.As(err, &me) && me.Number == errAccessDenied:
		return "authentication failed for user " + strconv.Quote(u.User)
	case errors.As(err, &me) && me.Number == errBadDB:
		return "the database does not exist"
	case errors.As(err, &me) && me.Number == errDBAccess:
		return fmt.Sprintf("the database does not exist, or user %q may not use it", u.User)
	case errors.As(err, &me):
		return fmt.Sprintf("%s (%d)", redact(u, me.Message), me.Number)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return "no answer in time"
	case errors.Is(err, mysql.ErrNoTLS):
		return "the server offers no TLS (tls=true asks for it)"
	case errors.As(err, &ce):
		return "TLS: " + ce.Error()
	case errors.Is(err, mysql.ErrInvalidConn) || errors.Is(err, driver.ErrBadConn):
		return "the connection was lost"
	}
	return "unreachable: " + redact(u, err.Error())
}

// fail names the store and what it could not do; a denied statement says
// what to grant.
func (s *Store) fail(what string, err error) error {
	msg := reason(s.url, err)
	if me := (*mysql.MySQLError)(nil); errors.As(err, &me) && me.Number == errTableDenied {
		msg += fmt.Sprintf(" (the user needs: GRANT SELECT, INSERT, UPDATE ON %s TO %s)", s.qualified(), s.account())
	}
	return errs.New(errs.ErrWorker, "%s: cannot %s: %s", s.url.Where, what, msg)
}

func (s *Store) qualified() string { return quoteIdent(s.url.Database) + "." + s.table }

// account is the server's name of the user ('user'@'host'), for a GRANT.
func (s *Store) account() string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var cu string
	if s.db.QueryRowContext(ctx, "SELECT CURRENT_USER()").Scan(&cu) == nil {
		if user, host, ok := strings.Cut(cu, "@"); ok {
			return quoteLiteral(user) + "@" + quoteLiteral(host)
		}
	}
	return quoteLiteral(s.url.User)
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func errNumber(err error) uint16 {
	if me := (*mysql.MySQLError)(nil); errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// nowSQL is the database's clock in unix milliseconds (UTC whatever the
// session's time zone).
const nowSQL = "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)"

// expirySQL is Expiry in database time, as a UTC DATETIME(6).
func (s *Store) expirySQL() string {
	iv := Interval(s.ttl).Milliseconds()
	return fmt.Sprintf("TIMESTAMPADD(MICROSECOND, ((%s + %d) DIV %d + 1) * %d * 1000, '1970-01-01 00:00:00')",
		nowSQL, s.ttl.Milliseconds(), iv, iv)
}

// StoreNow reads the database's clock (lease.Clocked).
func (s *Store) StoreNow(ctx context.Context) (time.Time, error) {
	var us int64
	err := s.db.QueryRowContext(ctx, "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))").Scan(&us)
	if err != nil {
		return time.Time{}, s.fail("read the clock", err)
	}
	return time.UnixMicro(us), nil
}

// Close closes the connections; claims stop keeping their rows.
func (s *Store) Close() error {
	err := error(nil)
	s.once.Do(func() {
		close(s.done)
		err = s.db.Close()
	})
	return err
}
