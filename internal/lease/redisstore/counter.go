package redisstore

// Segment counters (preset=segment store=redis://…): one string key per
// counter holding its last value (start-1 when new), and a set of the
// counters made in the database, under one hash tag (one cluster slot):
//
//	idgen:{segment}:c:<name>   the counter: a take is INCRBY
//	idgen:{segment}:names      the names of the counters made here
//
// A take is one script (takeScript): it makes a missing counter, refuses
// one that Redis lost, and moves it up with INCRBY, cut at INT64_MAX. All
// arithmetic is Redis's (Lua's numbers are doubles: the script compares
// and returns values as text), and every value comes back as text.
//
// # Losing data
//
// Redis may lose what it acknowledged: a restart without persistence,
// FLUSHALL, a failover to a replica that lagged. A counter made again at
// start, or read back from an old snapshot, would hand out values already
// handed out. idgen never does that silently: a counter is refused (the
// take fails with errs.ErrWorker saying why, and the key is overwritten
// with a text saying so, so that every later taker, new processes too,
// refuses it as well) when
//
//   - it is missing but its name is in the set (deleted, or lost alone);
//   - it is missing, or stands below the end of the last segment this
//     generator took (each generator remembers that high-water mark), so
//     Redis lost it or went back in time under a live generator.
//
// An operator then sets the key to the highest value handed out (SET
// idgen:{segment}:c:<name> N) and the generators go on from there. Not
// covered: the whole database emptied while no generator of that counter
// runs (both the counter and the set are gone, and nobody remembers):
// the counter begins again at start. Run Redis with appendonly yes and
// appendfsync always (and ?wait=N with replicas, which makes a take count
// only once N replicas have it) when that matters.

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

const maxText = "9223372036854775807"

// lostPrefix begins the text a refused counter's key holds.
const lostPrefix = "idgen: counter lost: "

// takeScript takes a segment. KEYS: the counter, the set of names; ARGV:
// n, start-1, the caller's high-water mark ("" for none), the name,
// INT64_MAX, lostPrefix. Returns {'ok', prev, last}, {'end', last} for a counter used
// up, {'lost', text} when it refused a lost counter (and left text in the
// key), {'bad', value} for a key that holds no counter.
var takeScript = newScript(`
local function plain(v) return v == '0' or string.match(v, '^[1-9]%d*$') ~= nil end
local function below(a, b)
  if #a ~= #b then return #a < #b end
  return a < b
end
local v = redis.call('GET', KEYS[1])
local why = nil
if not v then
  if redis.call('SISMEMBER', KEYS[2], ARGV[4]) == 1 then
    why = 'the key is missing, though the counter was made in this database'
  elseif ARGV[3] ~= '' then
    why = 'the key is missing: Redis lost its data (a restart without persistence, FLUSHALL)'
  else
    redis.call('SET', KEYS[1], ARGV[2])
    redis.call('SADD', KEYS[2], ARGV[4])
    v = ARGV[2]
  end
elseif not plain(v) then
  return {'bad', v}
elseif ARGV[3] ~= '' and below(v, ARGV[3]) then
  why = 'it stood at ' .. v .. ': Redis went back to older data (a restart from an old snapshot, a failover to a lagging replica)'
end
if why then
  local hw = 'values up to at least ' .. ARGV[3] .. ' were handed out'
  if ARGV[3] == '' then hw = 'how far it went is not known here' end
  local t = ARGV[6] .. why .. '; ' .. hw .. '; SET this key to the highest value handed out to go on'
  redis.call('SET', KEYS[1], t)
  redis.call('SADD', KEYS[2], ARGV[4])
  return {'lost', t}
end
if v == ARGV[5] then return {'end', v} end
local r = redis.pcall('INCRBY', KEYS[1], ARGV[1])
if type(r) == 'table' and r.err then
  if not string.find(r.err, 'overflow') then return r end
  redis.call('SET', KEYS[1], ARGV[5])
end
return {'ok', v, redis.call('GET', KEYS[1])}
`)

// giveBackScript sets KEYS[1] to ARGV[2] only while it holds ARGV[1].
var giveBackScript = newScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0} end
redis.call('SET', KEYS[1], ARGV[2])
return {1}
`)

// Counters is a Redis database as a segment.Store.
type Counters struct {
	s     *Store
	mu    sync.Mutex
	taken map[string]int64 // per counter, the end of the last segment taken (the high-water mark)
}

// OpenCounters connects within timeout.
func OpenCounters(u *config.StoreURL, timeout time.Duration) (*Counters, error) {
	s, err := Open(u, timeout)
	if err != nil {
		return nil, err
	}
	return &Counters{s: s, taken: map[string]int64{}}, nil
}

// CounterKey is the key of a counter.
func CounterKey(name string) string { return "idgen:{segment}:c:" + name }

// NamesKey is the set of the counters made in a database.
const NamesKey = "idgen:{segment}:names"

// Where names the server and the database, never the password.
func (c *Counters) Where() string { return c.s.url.Where }

// Close drops the connection.
func (c *Counters) Close() error { return c.s.Close() }

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n int64) (int64, int64, error) {
	c.mu.Lock()
	hw, seen := c.taken[name]
	c.mu.Unlock()
	mark := ""
	if seen {
		mark = strconv.FormatInt(hw, 10)
	}
	key := CounterKey(name)
	a, err := c.s.eval(ctx, takeScript, []string{key, NamesKey}, strconv.FormatInt(n, 10), strconv.FormatInt(start-1, 10), mark, name, maxText, lostPrefix)
	if err != nil {
		return 0, 0, errs.Wrap(err, "take a segment of counter %s (key %s)", name, key)
	}
	switch v := str(a[1]); {
	case str(a[0]) == "lost", str(a[0]) == "bad" && strings.HasPrefix(v, lostPrefix):
		return 0, 0, errs.New(errs.ErrWorker, "%s: counter %s is refused, never begun again below values already handed out: %s", c.Where(), name, v)
	case str(a[0]) == "bad":
		return 0, 0, errs.New(errs.ErrWorker, "%s: key %s holds %q, not a counter idgen wrote; idgen never guesses one", c.Where(), key, clip(v))
	case str(a[0]) == "end":
		_, err := segment.Advance(1<<63-1, n)
		return 0, 0, err
	}
	prev, err1 := strconv.ParseInt(str(a[1]), 10, 64)
	last, err2 := strconv.ParseInt(str(a[len(a)-1]), 10, 64)
	if want, err := segment.Advance(prev, n); err1 != nil || err2 != nil || err != nil || len(a) != 3 || last != want {
		return 0, 0, errs.New(errs.ErrWorker, "%s: counter %s: unexpected answer %v", c.Where(), name, a)
	}
	if err := c.s.waitReplicas(ctx); err != nil {
		return 0, 0, err // taken on the primary: lost, never handed out
	}
	c.mu.Lock()
	c.taken[name] = max(c.taken[name], last)
	c.mu.Unlock()
	return prev, last, nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// GiveBack implements segment.Store.
func (c *Counters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	a, err := c.s.eval(ctx, giveBackScript, []string{CounterKey(name)}, strconv.FormatInt(last, 10), strconv.FormatInt(to, 10))
	if err != nil {
		return false, errs.Wrap(err, "give back the rest of counter %s", name)
	}
	if n, _ := a[0].(int64); n != 1 {
		return false, nil
	}
	c.mu.Lock()
	c.taken[name] = to
	c.mu.Unlock()
	return true, c.s.waitReplicas(ctx)
}

// Read implements segment.Store: the key as it stands (a refused
// counter's text is an error saying so).
func (c *Counters) Read(ctx context.Context, name string) (int64, bool, error) {
	key := CounterKey(name)
	a, err := c.s.call(ctx, "GET", key)
	if err != nil {
		return 0, false, errs.Wrap(err, "read counter %s (key %s)", name, key)
	}
	if a == nil {
		return 0, false, nil
	}
	text := str(a)
	v, perr := strconv.ParseInt(text, 10, 64)
	if perr != nil {
		return 0, false, errs.New(errs.ErrWorker, "%s: key %s holds %q, not a counter idgen can go on from", c.Where(), key, clip(text))
	}
	return v, true, nil
}
