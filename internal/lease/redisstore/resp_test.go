package redisstore

import (
	"bufio"
	"context"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// serve answers each command read from the pipe with the next canned
// reply and records the commands as RESP text.
func serve(t *testing.T, replies ...string) (*conn, *strings.Builder) {
	client, server := net.Pipe()
	t.Cleanup(func() { client.Close(); server.Close() })
	var got strings.Builder
	go func() {
		r := bufio.NewReader(server)
		for _, rep := range replies {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			got.WriteString(line)
			var n int
			for i := range line[1 : len(line)-2] {
				n = n*10 + int(line[1+i]-'0')
			}
			for range 2 * n {
				l, _ := r.ReadString('\n')
				got.WriteString(l)
			}
			_, _ = server.Write([]byte(rep))
		}
	}()
	return &conn{nc: client, r: bufio.NewReader(client), w: bufio.NewWriter(client)}, &got
}

func TestReplies(t *testing.T) {
	tests := []struct {
		reply string
		want  any
	}{
		{"+OK\r\n", "OK"},
		{":42\r\n", int64(42)},
		{"$5\r\nhe\r\no\r\n", "he\r\no"},
		{"$-1\r\n", nil},
		{"_\r\n", nil},
		{"#t\r\n", true},
		{"*3\r\n$1\r\na\r\n:7\r\n$-1\r\n", []any{"a", int64(7), nil}},
		{"*2\r\n*1\r\n+x\r\n$0\r\n\r\n", []any{[]any{"x"}, ""}},
		{"%1\r\n+k\r\n:1\r\n", []any{"k", int64(1)}},
	}
	for _, tt := range tests {
		c, _ := serve(t, tt.reply)
		got, err := c.do(context.Background(), "PING")
		require.NoError(t, err, tt.reply)
		require.Equal(t, tt.want, got, tt.reply)
	}
}

func TestErrorsAndCommands(t *testing.T) {
	c, sent := serve(t, "-NOSCRIPT No matching script\r\n", "+OK\r\n")
	_, err := c.do(context.Background(), "EVALSHA", "abc", "0")
	var re redisError
	require.ErrorAs(t, err, &re)
	require.Equal(t, "NOSCRIPT", re.prefix())
	_, err = c.do(context.Background(), "SET", "k", "a b")
	require.NoError(t, err, "an error reply leaves the connection usable")
	require.Equal(t, "*3\r\n$7\r\nEVALSHA\r\n$3\r\nabc\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\na b\r\n", sent.String())
}

func TestMalformedAndTimeout(t *testing.T) {
	c, _ := serve(t, "?what\r\n")
	_, err := c.do(context.Background(), "PING")
	require.ErrorContains(t, err, "unknown reply type")

	c, _ = serve(t) // never answers
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.do(ctx, "PING")
	require.Error(t, err)
	require.Less(t, time.Since(start), 2*time.Second, "every call has a deadline")
}

// A hostile or broken server on a real socket announces more than any
// reply of the store's commands: the read fails with an error naming it,
// at once, without allocating what was announced (a bulk of 2^40 bytes
// used to be made before a byte of it arrived), and the connection is
// dropped, not the process.
func TestHostileAnnouncementsAreRefusedNotAllocated(t *testing.T) {
	tests := []struct{ name, reply, want string }{
		{"bulk of 2^40", "$1099511627776\r\nabc", "bulk string of 1099511627776"},
		{"array of 2^40", "*1099511627776\r\n:1\r\n", "array of 1099511627776"},
		{"map of 2^40", "%1099511627776\r\n", "array of 1099511627776"},
		{"nested deep", strings.Repeat("*1\r\n", 100000) + ":1\r\n", "nested more than"},
		{"endless line", "+" + strings.Repeat("x", 1<<20), "longer than"},
		{"bad length", "$12x\r\n", "malformed bulk string length"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			defer ln.Close()
			go func() {
				s, err := ln.Accept()
				if err != nil {
					return
				}
				defer s.Close()
				_, _ = bufio.NewReader(s).ReadString('\n')
				_, _ = s.Write([]byte(tt.reply))
				time.Sleep(2 * time.Second) // hold the connection: the client must not wait for the rest
			}()
			nc, err := net.Dial("tcp", ln.Addr().String())
			require.NoError(t, err)
			c := &conn{nc: nc, r: bufio.NewReader(nc), w: bufio.NewWriter(nc)}
			defer c.close()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_, err = c.do(ctx, "PING")
			runtime.ReadMemStats(&after)
			require.ErrorContains(t, err, tt.want)
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "allocated no more than the bounds")
		})
	}
}
