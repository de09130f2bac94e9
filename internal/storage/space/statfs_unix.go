//go:build unix

package space

import "golang.org/x/sys/unix"

// freeBytes is the space an unprivileged process may still write on the
// file system holding dir.
func freeBytes(dir string) (int64, bool, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false, err
	}
	return int64(st.Bavail) * int64(st.Bsize), true, nil // the fields' types differ between systems
}
