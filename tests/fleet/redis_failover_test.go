//go:build fleet

package fleet

// A failover to a lagging replica, through a forwarder that moves every
// client from the primary to the promoted replica at once (as a virtual IP
// or a proxy would): the replica missed a pair taken and the fences
// written while it was paused.

import (
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forwarder passes connections to a target it can switch, dropping every
// connection it passed so far when it does.
type forwarder struct {
	ln     net.Listener
	mu     sync.Mutex
	target string
	conns  []net.Conn
}

func startForwarder(t *testing.T, target string) *forwarder {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	f := &forwarder{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); f.switchTo("") })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	return f
}

func (f *forwarder) serve(c net.Conn) {
	f.mu.Lock()
	target := f.target
	f.mu.Unlock()
	u, err := net.Dial("tcp", target)
	if err != nil {
		c.Close()
		return
	}
	f.mu.Lock()
	f.conns = append(f.conns, c, u)
	f.mu.Unlock()
	go func() { _, _ = io.Copy(u, c); u.Close() }()
	_, _ = io.Copy(c, u)
	c.Close()
}

func (f *forwarder) switchTo(target string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.target = target
	for _, c := range f.conns {
		c.Close()
	}
	f.conns = nil
}

func (f *forwarder) port() int { return f.ln.Addr().(*net.TCPAddr).Port }

func TestRedisFailoverToALaggingReplica(t *testing.T) {
	out, err := script("redis.sh", "replica", redisDir())
	require.NoError(t, err, out)
	rport := readTrim(filepath.Join(redisDir(), "replica", "port"))
	t.Cleanup(func() {
		_, _ = script("redis.sh", "replica-stop", redisDir())
		if _, err := script("redis.sh", "cli", redisDir(), "ping"); err != nil {
			redisRestart(t) // the primary, empty, for the tests after this one
		}
	})
	rpid := readTrim(filepath.Join(redisDir(), "replica", "redis.pid"))

	pid, err := strconv.Atoi(rpid)
	require.NoError(t, err)
	f := startForwarder(t, "127.0.0.1:"+readTrim(filepath.Join(redisDir(), "port")))
	url := redisURL(t, f.port())
	cfg := "layout=time:41,worker:2,seq:20 lease_ttl=2s max_outage=3s worker=" + url
	hs := fourLive(t, cfg, 3) // pairs 0, 1, 2, on the replica too

	// The replica lags: a fourth holder takes pair 3, every holder renews,
	// and the replica sees none of it. Pair 1's holder dies.
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	late := startWatched(t, cfg, 300)
	require.Equal(t, "3", workerOf(late.pair()))
	time.Sleep(1500 * time.Millisecond)
	dead := hs[1]
	dead.signal(syscall.SIGKILL)
	<-dead.exited
	deadIDs := dead.ids()

	// Failover: the primary dies, the replica is promoted, clients move.
	out, err = script("redis.sh", "kill9", redisDir())
	require.NoError(t, err, out)
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	promote := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", rport, "-a", "s3cret", "--no-auth-warning", "REPLICAOF", "NO", "ONE")
	b, err := promote.CombinedOutput()
	require.NoError(t, err, string(b))
	f.switchTo("127.0.0.1:" + rport)
	failedOver := time.Now()
	n := startWatched(t, cfg, 300) // at once: the replica has no lock for pair 3
	took := time.Since(failedOver)
	require.Equal(t, workerOf(dead.pair()), workerOf(n.pair()), "the newcomer has the dead holder's pair, not the one the replica missed")
	time.Sleep(1500 * time.Millisecond)

	live := []*watched{hs[0], hs[2], late}
	for _, h := range live {
		assert.Equal(t, workerOf(h.pair()), workerOf(h.lastPair()), "the live holder kept its pair")
		h.stop()
		assert.Empty(t, h.failures(), "live holder %s never stopped", h.pair())
	}
	n.stop()
	nIDs := n.ids()
	require.NotEmpty(t, nIDs)
	deadLast, nFirst := unixMs(t, dead.cfg, deadIDs[len(deadIDs)-1]), unixMs(t, n.cfg, nIDs[0])
	require.Greater(t, nFirst, deadLast+3000, "the newcomer did not trust the replica's stale record of the dead holder")
	total := noDuplicates(t, append(asHolders(live), dead.holder, n.holder)...)
	t.Logf("failover to a replica paused 1.5 s (it missed pair %s's lock and every renewal): live holders kept their pairs; the newcomer opened on the dead holder's pair %s after %s, first id %+d ms after the dead holder's last; %d ids, 0 duplicates",
		late.pair(), n.pair(), took.Round(10*time.Millisecond), nFirst-deadLast, total)
}
