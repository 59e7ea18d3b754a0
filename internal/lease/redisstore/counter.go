package redisstore

// Segment counters (preset=segment store=redis://…): one string key per
// counter holding its last value (start-1 when new), a set of the
// counters made in the database, and the counters' incarnation, under one
// hash tag (one cluster slot):
//
//	idgen:{segment}:c:<name>   the counter: a take is INCRBY
//	idgen:{segment}:names      the names of the counters made here
//	idgen:{segment}:inc        the incarnation: a random id, when it was made
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
//   - it is missing, or stands below the taker's high-water mark (the end
//     of the last segment its generator took, segment.Store), so Redis
//     lost it or went back in time under a live generator;
//   - a live generator's watch (counter_watch.go: every 0.5 s, off the
//     hot path) finds its key gone or below its mark: it leaves the
//     refusal in the key at once, before a taker can make the counter
//     again or take from the older value.
//
// A taker that would make a new counter does so only in an incarnation at
// least 2.5 s old (counterProbation): it makes the incarnation key when
// there is none (a new database, or one that lost everything) and waits
// until then, so that every live generator's watch has looked and
// refused its lost counter. So a Redis that restarts empty under live
// generators of a counter never begins it again, whoever opens first; the
// first counter of a database costs that wait once.
//
// An operator then sets the key to the highest value handed out (SET
// idgen:{segment}:c:<name> N, at least the value the refusal names) and
// the generators go on from there.
//
// Not covered: the data lost while no live generator of the counter can
// reach Redis for the whole probation (none runs, or all are cut off from
// Redis, frozen or partitioned, while it restarts empty): the counter
// begins again at start (a generator cut off that comes back refuses it
// then, at its next take or look, but a taker may have handed out values
// again by then). Redis keeps what idgen needs only with
// appendonly yes and appendfsync always (a restart then loses nothing
// acknowledged), and, with replicas, ?wait=N, which makes a take count
// only once N replicas have it.

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// watchEvery is how often the watch looks; counterProbation, how old the
// counters' incarnation must be before a taker makes a new counter, is
// several times longer, so that every live watch has looked by then.
const (
	watchEvery       = 500 * time.Millisecond
	counterProbation = 2500 * time.Millisecond
)

const maxText = "9223372036854775807"

// lostPrefix begins the text a refused counter's key holds.
const lostPrefix = "idgen: counter lost: "

// luaLost is the Lua of refusing a counter: plain (a value idgen wrote),
// below (two such values compared as numbers) and lost, which leaves in the
// key (KEYS[i]) a text saying why (ARGV: lostPrefix first) and how far
// the counter went (mark, "" when not known), and keeps its name in the
// set of names (names).
const luaLost = `
local function plain(v) return v == '0' or string.match(v, '^[1-9]%d*$') ~= nil end
local function below(a, b)
  if #a ~= #b then return #a < #b end
  return a < b
end
local function lost(key, names, name, why, mark)
  local hw = 'values up to at least ' .. mark .. ' were handed out'
  if mark == '' then hw = 'how far it went is not known here' end
  local t = ARGV[1] .. why .. '; ' .. hw .. '; SET this key to at least that value to go on'
  redis.call('SET', key, t)
  redis.call('SADD', names, name)
  return t
end
`

// takeScript takes a segment. KEYS: the counter, the set of names, the
// counters' incarnation; ARGV: lostPrefix, n, start-1, the caller's
// high-water mark ("" for none), the name, INT64_MAX, a new incarnation,
// the probation in ms. Returns {'ok', prev, last}, {'end', last} for a
// counter used up, {'lost', text} when it refused a lost counter (and
// left text in the key), {'bad', value} for a key that holds no counter,
// {'wait', ms} when a new counter must wait for the incarnation to be
// one probation old.
var takeScript = newScript(luaNow + luaLost + `
local v = redis.call('GET', KEYS[1])
if not v then
  if redis.call('SISMEMBER', KEYS[2], ARGV[5]) == 1 then
    return {'lost', lost(KEYS[1], KEYS[2], ARGV[5], 'the key is missing, though the counter was made in this database', ARGV[4])}
  elseif ARGV[4] ~= '' then
    return {'lost', lost(KEYS[1], KEYS[2], ARGV[5], 'the key is missing: Redis lost its data (a restart without persistence, FLUSHALL)', ARGV[4])}
  end
  local born = tonumber(redis.call('HGET', KEYS[3], 'born') or '')
  if not born then
    redis.call('HSET', KEYS[3], 'inc', ARGV[7], 'born', now)
    born = now
  end
  if born + tonumber(ARGV[8]) > now then return {'wait', tostring(born + tonumber(ARGV[8]) - now)} end
  redis.call('SET', KEYS[1], ARGV[3])
  redis.call('SADD', KEYS[2], ARGV[5])
  v = ARGV[3]
elseif not plain(v) then
  return {'bad', v}
elseif ARGV[4] ~= '' and below(v, ARGV[4]) then
  return {'lost', lost(KEYS[1], KEYS[2], ARGV[5], 'it stood at ' .. v .. ': Redis went back to older data (a restart from an old snapshot, a failover to a lagging replica)', ARGV[4])}
end
if v == ARGV[6] then return {'end', v} end
local r = redis.pcall('INCRBY', KEYS[1], ARGV[2])
if type(r) == 'table' and r.err then
  if not string.find(r.err, 'overflow') then return r end
  redis.call('SET', KEYS[1], ARGV[6])
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
	marks map[string]int64 // per counter taken here, the takers' high-water mark (the watch)
	stop  chan struct{}
	wg    sync.WaitGroup
}

// note keeps a counter's mark for the watch (counter_watch.go).
func (c *Counters) note(name string, mark int64) {
	c.mu.Lock()
	c.marks[name] = mark
	c.mu.Unlock()
}

// CounterKey is the key of a counter.
func CounterKey(name string) string { return "idgen:{segment}:c:" + name }

// NamesKey is the set of the counters made in a database.
const NamesKey = "idgen:{segment}:names"

// Where names the server and the database, never the password.
func (c *Counters) Where() string { return c.s.url.Where }

// Close stops the watch and drops the connection.
func (c *Counters) Close() error {
	c.mu.Lock()
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	c.mu.Unlock()
	err := c.s.Close()
	c.wg.Wait()
	return err
}

// IncKey is the counters' incarnation in a database (a hash: inc, born).
const IncKey = "idgen:{segment}:inc"

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	m := ""
	if mark > 0 {
		m = strconv.FormatInt(mark, 10)
	}
	key := CounterKey(name)
	a, err := c.takeScript(ctx, key, strconv.FormatInt(n, 10), strconv.FormatInt(start-1, 10), m, name)
	if err != nil {
		return 0, 0, err
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
	c.note(name, max(mark, last))
	return prev, last, nil
}

// takeScript runs the take script, waiting while it says to (a new
// counter in an incarnation younger than counterProbation).
func (c *Counters) takeScript(ctx context.Context, key, n, from, mark, name string) ([]any, error) {
	for {
		a, err := c.s.eval(ctx, takeScript, []string{key, NamesKey, IncKey}, lostPrefix, n, from, mark, name, maxText, newToken(), ms(counterProbation))
		if err != nil {
			return nil, errs.Wrap(err, "take a segment of counter %s (key %s)", name, key)
		}
		if len(a) < 2 {
			return nil, errs.New(errs.ErrWorker, "%s: counter %s: unexpected answer %v", c.Where(), name, a)
		}
		if str(a[0]) != "wait" {
			return a, nil
		}
		wait, _ := strconv.ParseInt(str(a[1]), 10, 64)
		d := time.Duration(max(1, wait)) * time.Millisecond
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
			return nil, errs.New(errs.ErrWorker, "%s: counters are new in this database, or it lost its data: a new counter %s is made only once its incarnation (key %s) is %s old, which is past this call's deadline",
				c.Where(), name, IncKey, counterProbation)
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.stop:
			return nil, errs.New(errs.ErrWorker, "%s: the store is closed", c.Where())
		}
	}
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
	c.note(name, to)
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
