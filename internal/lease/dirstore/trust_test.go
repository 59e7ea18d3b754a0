package dirstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

var pool1 = lease.Pool{Name: "time_test_1ms_0", DCs: 1, Workers: 1}
var pool4 = lease.Pool{Name: "time_test4_1ms_0", DCs: 1, Workers: 4}

func req(p lease.Pool) lease.Request { return lease.Request{Pool: p, DC: -1, TTL: time.Second} }

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, true)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func needRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: it makes files and directories owned by another user (CI runs as root)")
	}
}

// refused checks an ErrWorker naming the path, an owner and a mode.
func refused(t *testing.T, err error, path string) {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, errs.ErrWorker), "%v", err)
	require.Contains(t, err.Error(), path)
	require.Contains(t, err.Error(), "owner uid")
	require.Contains(t, err.Error(), "mode")
}

func TestRecordRoundTripAndRejectsAnythingElse(t *testing.T) {
	r := lease.Record{IssuedUpTo: 506646997504, Backwards: 3}
	b := formatRecord(r)
	require.Len(t, b, recordLen)
	got, ok := parseRecord(b)
	require.True(t, ok)
	require.Equal(t, r, got)
	for i := 0; i < len(b); i++ { // every single-byte change and every truncation fails
		bad := append([]byte(nil), b...)
		bad[i] ^= 0x01
		_, ok := parseRecord(bad)
		require.False(t, ok, "flipped byte %d", i)
		_, ok = parseRecord(b[:i])
		require.False(t, ok, "torn at %d", i)
	}
	_, ok = parseRecord([]byte("                  42\n")) // the old format
	require.False(t, ok)
}

func TestGarbageAndTornRecordsAreNeverFresh(t *testing.T) {
	for name, content := range map[string][]byte{
		"garbage": []byte("hello, world\n"),
		"torn":    formatRecord(lease.Record{IssuedUpTo: 1 << 40})[:20],
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s := open(t, dir)
			path := filepath.Join(dir, FileName(pool4.Name, lease.Pair{}))
			require.NoError(t, os.WriteFile(path, content, 0o644))
			c, err := s.Acquire(context.Background(), req(pool4))
			require.NoError(t, err)
			require.Equal(t, lease.Pair{DC: 0, Worker: 1}, c.Pair(), "the pair with a bad record is skipped")
			require.NoError(t, c.Abandon(context.Background()))

			one := filepath.Join(dir, FileName(pool1.Name, lease.Pair{}))
			require.NoError(t, os.WriteFile(one, content, 0o644))
			_, err = s.Acquire(context.Background(), req(pool1))
			require.ErrorIs(t, err, errs.ErrWorker)
			require.Contains(t, err.Error(), one, "the error names the file")
			require.Contains(t, err.Error(), "checksum")
		})
	}
}

func TestEmptyFileIsMissingNotFresh(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	c, err := s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	_, state := c.Predecessor()
	require.Equal(t, lease.Unmarked, state, "a pool never used here: no record, no marker")
	require.NoError(t, c.Abandon(context.Background()))
	c, err = s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	_, state = c.Predecessor()
	require.Equal(t, lease.Fresh, state, "the pool was used here (its marker) but this pair never had a record")
	require.NoError(t, c.Renew(context.Background(), lease.Record{IssuedUpTo: 76}))
	require.NoError(t, c.Abandon(context.Background()))
	require.NoError(t, os.Truncate(filepath.Join(dir, FileName(pool1.Name, lease.Pair{})), 0))
	c, err = s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	_, state = c.Predecessor()
	require.Equal(t, lease.Missing, state, "the pair had a record (the marker lists it): the record was lost")
	require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 77}))
	c, err = s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	rec, state := c.Predecessor()
	require.Equal(t, lease.Present, state)
	require.Equal(t, int64(77), rec.IssuedUpTo)
	require.NoError(t, c.Abandon(context.Background()))
}

func TestRemovedOrReplacedFileOrDirectoryIsGone(t *testing.T) {
	ctx := context.Background()
	t.Run("file removed", func(t *testing.T) {
		dir := t.TempDir()
		c, err := open(t, dir).Acquire(ctx, req(pool1))
		require.NoError(t, err)
		require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 5}))
		require.NoError(t, os.Remove(filepath.Join(dir, FileName(pool1.Name, lease.Pair{}))))
		require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 6}), lease.ErrGone)
	})
	t.Run("file replaced", func(t *testing.T) {
		dir := t.TempDir()
		c, err := open(t, dir).Acquire(ctx, req(pool1))
		require.NoError(t, err)
		path := filepath.Join(dir, FileName(pool1.Name, lease.Pair{}))
		require.NoError(t, os.Remove(path))
		// A second holder now locks a new file of the same name.
		c2, err := open(t, dir).Acquire(ctx, req(pool1))
		require.NoError(t, err)
		require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 6}), lease.ErrGone)
		require.NoError(t, c2.Renew(ctx, lease.Record{IssuedUpTo: 7}))
	})
	t.Run("directory renamed away", func(t *testing.T) {
		parent := t.TempDir()
		dir := filepath.Join(parent, "leases")
		require.NoError(t, os.Mkdir(dir, 0o755))
		c, err := open(t, dir).Acquire(ctx, req(pool1))
		require.NoError(t, err)
		require.NoError(t, os.Rename(dir, dir+".old"))
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 6}), lease.ErrGone)
	})
	t.Run("directory removed", func(t *testing.T) {
		parent := t.TempDir()
		dir := filepath.Join(parent, "leases")
		require.NoError(t, os.Mkdir(dir, 0o755))
		c, err := open(t, dir).Acquire(ctx, req(pool1))
		require.NoError(t, err)
		require.NoError(t, os.RemoveAll(dir))
		require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 6}), lease.ErrGone)
	})
}

func TestSymlinkedDirectoryIsRefused(t *testing.T) {
	parent := t.TempDir()
	real := filepath.Join(parent, "real")
	require.NoError(t, os.Mkdir(real, 0o755))
	link := filepath.Join(parent, "link")
	require.NoError(t, os.Symlink(real, link))
	for _, explicit := range []bool{true, false} {
		_, err := Open(link, explicit)
		refused(t, err, link)
		require.Contains(t, err.Error(), "symlink")
	}
	entries, _ := os.ReadDir(real)
	require.Empty(t, entries, "nothing was written through the link")
}

func TestLeaseFileSymlinkAndHardLinkAreRefusedAndTheTargetUntouched(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "precious")
	want := []byte("do not overwrite me: " + strings.Repeat("x", 100))
	require.NoError(t, os.WriteFile(outside, want, 0o644))
	s := open(t, dir)

	name := filepath.Join(dir, FileName(pool1.Name, lease.Pair{}))
	require.NoError(t, os.Symlink(outside, name))
	_, err := s.Acquire(context.Background(), req(pool1))
	refused(t, err, name)
	require.Contains(t, err.Error(), "symlink")
	got, _ := os.ReadFile(outside)
	require.Equal(t, want, got)

	require.NoError(t, os.Remove(name))
	require.NoError(t, os.Link(outside, name))
	_, err = s.Acquire(context.Background(), req(pool1))
	refused(t, err, name)
	require.Contains(t, err.Error(), "links")
	got, _ = os.ReadFile(outside)
	require.Equal(t, want, got)
}

func TestWorldWritableDirectoryMustBeSticky(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := Open(dir, true)
	refused(t, err, dir)
	require.Contains(t, err.Error(), "sticky")
	require.NoError(t, os.Chmod(dir, 0o777|os.ModeSticky))
	s, err := Open(dir, true)
	require.NoError(t, err)
	s.Close()
}

func TestDirectoryOwnedByAnotherUserIsRefused(t *testing.T) {
	needRoot(t)
	for _, mode := range []os.FileMode{0o777, 0o777 | os.ModeSticky} {
		parent := t.TempDir()
		dir := filepath.Join(parent, "idgen")
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.NoError(t, os.Chmod(dir, mode))
		require.NoError(t, os.Chown(dir, 65534, 65534))
		for _, explicit := range []bool{true, false} {
			_, err := Open(dir, explicit)
			refused(t, err, dir)
			require.Contains(t, err.Error(), "uid 65534")
			require.Contains(t, err.Error(), "install -d -m 1777")
		}
		entries, _ := os.ReadDir(dir)
		require.Empty(t, entries)
	}
}

func TestAnotherUsersLeaseFileIsNeverWritten(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o777|os.ModeSticky))
	theirs := filepath.Join(dir, FileName(pool4.Name, lease.Pair{}))
	want := formatRecord(lease.Record{IssuedUpTo: 1234})
	require.NoError(t, os.WriteFile(theirs, want, 0o644))
	require.NoError(t, os.Chown(theirs, 65534, 65534))
	s := open(t, dir)
	c, err := s.Acquire(context.Background(), req(pool4))
	require.NoError(t, err)
	require.Equal(t, lease.Pair{DC: 0, Worker: 1}, c.Pair(), "another user's pair is skipped")
	require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 99}))
	got, _ := os.ReadFile(theirs)
	require.Equal(t, want, got, "their file is unchanged")
	var st syscall.Stat_t
	require.NoError(t, syscall.Stat(theirs, &st))
	require.Equal(t, uint32(65534), st.Uid)
}

func TestDefaultDirectoryIsCreatedSticky(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idgen")
	s, err := Open(dir, false)
	require.NoError(t, err)
	s.Close()
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o777)|os.ModeSticky|os.ModeDir, fi.Mode())
	_, err = Open(filepath.Join(t.TempDir(), "missing"), true)
	require.ErrorIs(t, err, errs.ErrInvalid, "an explicit lease_dir must exist")
	require.True(t, strings.HasPrefix(err.Error(), "lease_dir:"))
}

func TestFilesAreCreated0644(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	c, err := open(t, dir).Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	defer c.Abandon(context.Background())
	fi, err := os.Stat(filepath.Join(dir, FileName(pool1.Name, lease.Pair{})))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "so several users can share one directory")
}

// Found by the real-server outage test: after the lease directory was
// moved away and made again, a store kept taking pairs in the old one (its
// descriptor), and its holders never leased again. Acquire follows the
// path; a claim in the old directory is Removed at its next renewal.
func TestDirectoryMovedAwayAndMadeAgain(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "leases")
	require.NoError(t, os.Mkdir(dir, 0o700))
	s := open(t, dir)
	old, err := s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	require.NoError(t, os.Rename(dir, dir+".old"))
	require.NoError(t, os.Mkdir(dir, 0o700))
	err = old.Renew(context.Background(), lease.Record{IssuedUpTo: 5})
	require.ErrorIs(t, err, lease.ErrRemoved)
	c, err := s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	require.NoError(t, c.Renew(context.Background(), lease.Record{IssuedUpTo: 9}))
	_, err = os.Stat(filepath.Join(dir, FileName(pool1.Name, c.Pair())))
	require.NoError(t, err, "the new claim's file is in the directory the path names now")
}
