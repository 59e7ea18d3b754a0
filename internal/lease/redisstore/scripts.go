package redisstore

// The server-side scripts: each runs atomically in Redis, so a check of
// the holder's token and the write it guards cannot be split by another
// client, a failover or an expiry. Times are Redis's (TIME, in ms).

import (
	"crypto/sha1"
	"encoding/hex"
)

// script is a Lua script and its SHA-1 (EVALSHA; EVAL when the server
// lost its script cache, as after a restart).
type script struct{ src, sha string }

func newScript(src string) *script {
	h := sha1.Sum([]byte(src))
	return &script{src: src, sha: hex.EncodeToString(h[:])}
}

const luaNow = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// markerScript reads the pool's marker, making it when missing (a new
// incarnation: ARGV[1], born now; ARGV[3] '1': made as a loss, lost = now,
// when the server cannot tell a new pool from one it lost, see
// facts.mayHaveLost). ARGV[2] is the server's replication id
// ("" if unknown): a marker written under another one lived on a server
// that was replaced since (a failover, a restart), which is a loss: a new
// incarnation, and lost = the new epoch (ms, increasing). Returns {inc,
// born, lost, now}; lost is "" while no loss was seen.
var markerScript = newScript(luaNow + `
local m = KEYS[1]
if redis.call('EXISTS', m) == 0 then
  redis.call('HSET', m, 'inc', ARGV[1], 'born', now)
  if ARGV[3] == '1' then redis.call('HSET', m, 'lost', now) end
  if ARGV[2] ~= '' then redis.call('HSET', m, 'replid', ARGV[2]) end
elseif ARGV[2] ~= '' then
  local rid = redis.call('HGET', m, 'replid')
  if not rid then
    redis.call('HSET', m, 'replid', ARGV[2])
  elseif rid ~= ARGV[2] then
    local old = tonumber(redis.call('HGET', m, 'lost') or '0')
    redis.call('HSET', m, 'inc', ARGV[1], 'lost', math.max(now, old + 1), 'replid', ARGV[2])
  end
end
local r = redis.call('HMGET', m, 'inc', 'born', 'lost')
return {r[1] or '', r[2] or '', r[3] or '', tostring(now)}
`)

// acquireScript locks the first free pair of a batch. KEYS: the marker,
// then lock and record keys per pair; ARGV: token, ttl ms, the
// incarnation the caller read and its latest loss ("" for none). Returns
// {index, fence, backwards, held before it, the record's token, its
// epoch, next_seq, holder}, {-2, held} when every pair of the batch is held, {-1} when the
// marker changed since it was read.
var acquireScript = newScript(`
local m = redis.call('HMGET', KEYS[1], 'inc', 'lost')
if m[1] ~= ARGV[3] or (m[2] or '') ~= ARGV[4] then return {-1} end
local held = 0
for i = 2, #KEYS, 2 do
  if redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local r = redis.call('HMGET', KEYS[i + 1], 'fence', 'backwards', 'token', 'epoch', 'next_seq', 'holder')
    return {(i - 2) / 2, r[1] or '', r[2] or '', held, r[3] or '', r[4] or '0', r[5] or '0', r[6] or '0'}
  end
  held = held + 1
end
return {-2, held}
`)

// writeScript writes a holder's record (a renewal, or the release when
// ARGV[11] is '1'). KEYS: lock, record, marker; ARGV: token, ttl ms,
// fence, backwards, seq (this write's number), acked (the number of the
// last write acknowledged, 0 for none), the holder's incarnation, a new
// incarnation to use if need be, host, pid, final, the token of the record
// found at acquisition ("" for none), the server's replication id, the
// record's next_seq and holder (lease.Record's Seq and Holder).
//
// A loss is seen when the marker is gone, when the server's replication id
// is not the marker's, when the record this holder wrote is gone, or when
// it is older than the last write acknowledged (a failover to a lagging
// replica). The first holder to see it (its incarnation is still the
// marker's) starts a new incarnation and epoch (lost = now); the others
// find another incarnation and adopt it. Every record carries the epoch it
// was written in: a taker does not trust a record older than the marker's.
// The holder keeps its pair, and publishes its fence again, while its lock
// is its own, or free with the record its own (before its first write:
// the one it found) or gone; otherwise the pair is another holder's:
// {'gone', why, inc, now}. Returns {'ok', inc, lost, now}: now, Redis's
// clock, spares the skew estimate a TIME of its own (Store.StoreNow), so a
// renewal is this one script. The marker is read in one HMGET.
var writeScript = newScript(luaNow + `
local tok, mine, m = ARGV[1], ARGV[7], KEYS[3]
local acked = tonumber(ARGV[6])
local mk = redis.call('HMGET', m, 'inc', 'replid', 'lost')
local inc, rid, mlost = mk[1], mk[2], mk[3]
local lost, first = false, false
if not inc then
  inc, first = ARGV[8], true
  redis.call('HSET', m, 'inc', inc, 'born', now)
elseif inc ~= mine then
  lost = true
end
if ARGV[13] ~= '' and rid ~= ARGV[13] then
  if rid and inc == mine then first = true end
  redis.call('HSET', m, 'replid', ARGV[13])
end
local cur = redis.call('GET', KEYS[1])
local r = redis.call('HMGET', KEYS[2], 'token', 'seq')
local exp = tok
if acked == 0 then exp = ARGV[12] end
local why = nil
if cur and cur ~= tok then
  why = 'the lock key has another holder'
elseif not cur and r[1] and r[1] ~= exp and r[1] ~= tok then
  why = 'the lock key expired and another holder wrote the record'
end
if (not r[1] and exp ~= '') or (r[1] == tok and tonumber(r[2] or '0') < acked) then
  if inc == mine then first = true else lost = true end
end
if first then
  if inc == mine then
    inc = ARGV[8]
    redis.call('HSET', m, 'inc', inc)
  end
  mlost = tostring(math.max(now, tonumber(mlost or '0') + 1))
  redis.call('HSET', m, 'lost', mlost)
elseif lost and not mlost then
  mlost = tostring(now)
  redis.call('HSET', m, 'lost', mlost)
end
if why then return {'gone', why, inc, tostring(now)} end
if ARGV[11] == '1' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], tok, 'PX', ARGV[2])
end
local epoch = mlost or '0'
redis.call('HSET', KEYS[2], 'fence', ARGV[3], 'backwards', ARGV[4], 'token', tok, 'seq', ARGV[5], 'epoch', epoch, 'host', ARGV[9], 'pid', ARGV[10], 'at', now, 'next_seq', ARGV[14], 'holder', ARGV[15])
local l = '0'
if lost or first then l = '1' end
return {'ok', inc, l, tostring(now)}
`)

// lockScript keeps (ARGV[3] 'keep': moves the expiry) or drops ('drop')
// a lock while it carries the token ARGV[1]. Returns {1} if it did, else {0}.
var lockScript = newScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0} end
if ARGV[3] == 'keep' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
else
  redis.call('DEL', KEYS[1])
end
return {1}
`)
