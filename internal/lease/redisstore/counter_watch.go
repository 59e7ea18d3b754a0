package redisstore

// The watch of a Redis segment store: while counters are taken here, a
// goroutine looks every watchEvery whether their keys still exist and
// stand at or above the generator's mark, and refuses each one that does
// not (Redis lost its data: a restart without persistence, FLUSHALL, a
// failover to a replica that lagged), so
// that a taker that comes after, a new process too, refuses it rather
// than begin it again at start= (counter.go, "Losing data").

import (
	"context"
	"strconv"
	"time"

	"github.com/idgen/idgen/internal/lease/storeurl"
)

// watchScript refuses the counters whose keys are gone or below their
// marks. KEYS: the
// counters' keys, then the set of names; ARGV: lostPrefix, then each
// counter's name and mark. Returns {how many it refused}.
var watchScript = newScript(luaLost + `
local names = KEYS[#KEYS]
local n = 0
for i = 1, #KEYS - 1 do
  local v, mark = redis.call('GET', KEYS[i]), ARGV[2 * i + 1]
  if not v then
    lost(KEYS[i], names, ARGV[2 * i], 'the key is missing: Redis lost its data (a restart without persistence, FLUSHALL) while a generator held values of it', mark)
    n = n + 1
  elseif plain(v) and below(v, mark) then
    lost(KEYS[i], names, ARGV[2 * i], 'it stood at ' .. v .. ': Redis went back to older data (a restart from an old snapshot, a failover to a lagging replica)', mark)
    n = n + 1
  end
end
return {n}
`)

// OpenCounters connects within timeout and starts the watch.
func OpenCounters(u *storeurl.StoreURL, timeout time.Duration) (*Counters, error) {
	s, err := Open(u, timeout)
	if err != nil {
		return nil, err
	}
	c := &Counters{s: s, marks: map[string]int64{}, stop: make(chan struct{})}
	c.wg.Add(1)
	go c.watch()
	return c, nil
}

// watch runs Check every watchEvery until Close.
func (c *Counters) watch() {
	defer c.wg.Done()
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), watchEvery)
			_, _ = c.Check(ctx)
			cancel()
		}
	}
}

// Check looks once whether the counters taken here still exist at or
// above their marks, and refuses those that do not; it returns how many
// it refused.
func (c *Counters) Check(ctx context.Context) (int, error) {
	c.mu.Lock()
	keys := make([]string, 0, len(c.marks)+1)
	args := []string{lostPrefix}
	for name, mark := range c.marks {
		if mark > 0 {
			keys = append(keys, CounterKey(name))
			args = append(args, name, strconv.FormatInt(mark, 10))
		}
	}
	c.mu.Unlock()
	if len(keys) == 0 {
		return 0, nil
	}
	a, err := c.s.eval(ctx, watchScript, append(keys, NamesKey), args...)
	if err != nil {
		return 0, err
	}
	n, _ := a[0].(int64)
	return int(n), nil
}
