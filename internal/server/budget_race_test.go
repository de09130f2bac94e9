//go:build race

package server_test

// The race detector changes allocation counts (sync.Pool drops items at
// random under it), so TestBudgets checks only statements there.
const raceEnabled = true
