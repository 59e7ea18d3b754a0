package etcdstore

// The few etcd v3 requests a lease needs, as the JSON gateway spells them.

import (
	"context"
	"errors"
	"strconv"
)

// kv is a key as etcd returns it (absent fields are zero).
type kv struct {
	Key            []byte `json:"key"`
	Value          []byte `json:"value"`
	CreateRevision int64  `json:"create_revision,string"`
	ModRevision    int64  `json:"mod_revision,string"`
	Lease          int64  `json:"lease,string"`
}

type header struct {
	Revision int64 `json:"revision,string"`
}

type rangeResp struct {
	Header header `json:"header"`
	Kvs    []kv   `json:"kvs"`
}

// one is the range's key, nil when there is none.
func (r *rangeResp) one() *kv {
	if r == nil || len(r.Kvs) == 0 {
		return nil
	}
	return &r.Kvs[0]
}

type txnResp struct {
	Header    header `json:"header"`
	Succeeded bool   `json:"succeeded"`
	Responses []struct {
		Range *rangeResp `json:"response_range"`
	} `json:"responses"`
}

// ranged is the key the i-th operation of the branch taken read (nil: none).
func (t *txnResp) ranged(i int) *kv {
	if i >= len(t.Responses) {
		return nil
	}
	return t.Responses[i].Range.one()
}

type obj = map[string]any

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// createdIs compares key's create revision (0: the key does not exist).
func createdIs(key string, rev int64) obj {
	return obj{"key": []byte(key), "result": "EQUAL", "target": "CREATE", "create_revision": i64(rev)}
}

// modIs compares key's mod revision.
func modIs(key string, rev int64) obj {
	return obj{"key": []byte(key), "result": "EQUAL", "target": "MOD", "mod_revision": i64(rev)}
}

// leaseIs compares the lease key is attached to (a missing key has 0).
func leaseIs(key string, id int64) obj {
	return obj{"key": []byte(key), "result": "EQUAL", "target": "LEASE", "lease": i64(id)}
}

func put(key string, value []byte, lease int64) obj {
	p := obj{"key": []byte(key), "value": value}
	if lease != 0 {
		p["lease"] = i64(lease)
	}
	return obj{"request_put": p}
}

func get(key string) obj { return obj{"request_range": obj{"key": []byte(key)}} }

func del(key string) obj { return obj{"request_delete_range": obj{"key": []byte(key)}} }

// txn runs if compare then success else failure.
func (c *client) txn(ctx context.Context, compare, success, failure []obj) (*txnResp, error) {
	var r txnResp
	err := c.call(ctx, "/v3/kv/txn", obj{"compare": compare, "success": success, "failure": failure}, &r)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// read is a linearizable read of one key (nil: no such key).
func (c *client) read(ctx context.Context, key string) (*kv, error) {
	var r rangeResp
	if err := c.call(ctx, "/v3/kv/range", obj{"key": []byte(key)}, &r); err != nil {
		return nil, err
	}
	return r.one(), nil
}

// grant makes a lease of ttl seconds (etcd may raise it to its minimum).
func (c *client) grant(ctx context.Context, seconds int64) (int64, error) {
	var r struct {
		ID    int64  `json:"ID,string"`
		Error string `json:"error"`
	}
	if err := c.call(ctx, "/v3/lease/grant", obj{"TTL": i64(seconds)}, &r); err != nil {
		return 0, err
	}
	if r.Error != "" {
		return 0, &rpcError{Code: 2, Msg: r.Error}
	}
	return r.ID, nil
}

// keepAlive renews lease id once and returns the TTL it has now: 0 when
// it expired (or was revoked).
func (c *client) keepAlive(ctx context.Context, id int64) (int64, error) {
	var r struct {
		Result *struct {
			TTL int64 `json:"TTL,string"`
		} `json:"result"`
	}
	if err := c.call(ctx, "/v3/lease/keepalive", obj{"ID": i64(id)}, &r); err != nil {
		return 0, err
	}
	if r.Result == nil {
		return 0, errors.New("the keep-alive stream ended without an answer")
	}
	return r.Result.TTL, nil
}

// revoke ends lease id, deleting the keys attached to it; a lease already
// gone is fine.
func (c *client) revoke(ctx context.Context, id int64) error {
	var r struct{}
	err := c.call(ctx, "/v3/lease/revoke", obj{"ID": i64(id)}, &r)
	if re := (*rpcError)(nil); errors.As(err, &re) && re.Code == codeNotFound {
		return nil
	}
	return err
}
