package segment

// Opening a Counter: its first segment taken.

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// NewCounter takes the first segment (a counter already used up opens: its
// calls are errs.ErrTimeOverflow). A store that cannot be reached fails
// the open. The Counter owns st from here on, also on error.
func NewCounter(st Store, cfg Config) (*Counter, error) {
	if cfg.Min <= 0 {
		cfg.Min = 1000
	}
	if cfg.Max <= 0 {
		cfg.Max = 10_000_000
	}
	if cfg.TakeTimeout <= 0 {
		cfg.TakeTimeout = 5 * time.Second
	}
	cfg.Padding = max(1, min(99, cfg.Padding))
	c := &Counter{cfg: cfg, store: st, env: cfg.Env, ready: make(chan struct{}), step: cfg.Step, stop: make(chan struct{})}
	if c.env == nil {
		c.env = lease.RealEnv
	}
	c.manual = c.env.Manual()
	if err := c.initPeriods(); err != nil {
		st.Close()
		return nil, err
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.cur.Store(&seg{}) // empty: the first call installs the first segment
	ctx, cancel := context.WithTimeout(c.ctx, max(cfg.TakeTimeout, cfg.MaxWait))
	defer cancel()
	s, err := c.take(ctx, c.step)
	switch {
	case errs.KindOf(err) == errs.ErrTimeOverflow:
		c.ended = err
	case err != nil:
		c.cancel()
		st.Close()
		return nil, err
	default:
		c.pre = s
	}
	return c, nil
}
