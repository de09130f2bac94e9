package render

import "slices"

// Pids lists the running workers' process ids, sorted.
func (ws *Workers) Pids() []int {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var ps []int
	for c := range ws.live {
		ps = append(ps, c.pid())
	}
	slices.Sort(ps)
	return ps
}
