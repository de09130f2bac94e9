//go:build !linux

package app

import (
	"errors"
	"os"
)

// Prompting without echo is built for Linux; elsewhere use --password-stdin.
func isTerminal(*os.File) bool { return false }

func readNoEcho(*os.File) (string, error) {
	return "", errors.New("prompting is not supported here: use --password-stdin")
}
