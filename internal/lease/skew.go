package lease

import (
	"context"
	"math"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// skewUnknown is Stats.SkewMs while the store's clock is not known.
const skewUnknown = math.MinInt64

// measureSkew estimates the generator's clock minus the store's, in ms,
// from one StoreNow call: the store's reading is taken as of the middle of
// the round trip. ok false: the store has no clock or did not answer.
func (k *Keeper) measureSkew(timeout time.Duration) (skewMs, hostMs, storeMs int64, err error) {
	c, ok := k.store.(Clocked)
	if !ok {
		return skewUnknown, 0, 0, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	t0 := k.iss.Now()
	st, err := c.StoreNow(ctx)
	t1 := k.iss.Now()
	if err != nil {
		return skewUnknown, 0, 0, err
	}
	hostMs, storeMs = t0+(t1-t0)/2, st.UnixMilli()
	k.skew.Store(hostMs - storeMs)
	return hostMs - storeMs, hostMs, storeMs, nil
}

// checkSkew measures the skew before anything is taken and, with
// max_skew, refuses a store whose clock is further from the generator's.
func (k *Keeper) checkSkew() error {
	skew, hostMs, storeMs, err := k.measureSkew(k.cfg.TTL + 3*time.Second)
	if k.cfg.MaxSkew <= 0 {
		return nil // only reported
	}
	if err != nil {
		return errs.New(errs.ErrWorker, "max_skew=%s: cannot read the store's clock: %v", k.cfg.MaxSkew, err)
	}
	if skew == skewUnknown {
		return errs.New(errs.ErrInvalid, "max_skew=%s: the store has no clock", k.cfg.MaxSkew)
	}
	if time.Duration(abs(skew))*time.Millisecond > k.cfg.MaxSkew {
		return errs.New(errs.ErrClockBackwards, "max_skew=%s: this host's clock reads %s, the lease store's %s (%s apart); fix the clocks (NTP) or raise max_skew",
			k.cfg.MaxSkew, fmtMs(hostMs), fmtMs(storeMs), (time.Duration(abs(skew)) * time.Millisecond).String())
	}
	return nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
