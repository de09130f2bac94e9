package server

// KnownGaps reports how many skipped change-log ids the follower is
// waiting for.
func (s *Server) KnownGaps() int {
	s.changes.mu.Lock()
	defer s.changes.mu.Unlock()
	return len(s.changes.gaps)
}

// LastChangeRead is the newest change-log id the follower has read.
func (s *Server) LastChangeRead() int64 { return s.lastChange.Load() }
