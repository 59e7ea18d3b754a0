package serve

// Files that hold secrets (--token-file, --gen-file): read like a lease
// file, opened without following a symlink, and refused unless a regular
// file owned by this user that no other user may read or write (mode 0600
// or stricter).

import (
	"fmt"
	"os"
	"syscall"
)

// openPrivate opens path for reading after those checks; flag names the
// option in messages.
func openPrivate(flag, path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w (a symlink is not followed)", flag, path, err)
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		err = fmt.Errorf("%s %s: not a regular file", flag, path)
	case int(st.Uid) != os.Geteuid():
		err = fmt.Errorf("%s %s: owned by uid %d, not by this user (uid %d)", flag, path, st.Uid, os.Geteuid())
	case st.Mode&0o077 != 0:
		err = fmt.Errorf("%s %s: mode %04o lets other users read or write it (chmod 600)", flag, path, st.Mode&0o7777)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
