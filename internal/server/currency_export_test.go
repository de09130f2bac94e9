package server

// A test door into live search's memo of decoded answers (internal/ajax).

// ForgetDecodedSuggestionsForTest empties the memo, so the next non-base
// live search decodes the cached answer again.
func (s *Server) ForgetDecodedSuggestionsForTest() { s.ajax.ForgetDecodedSuggestions() }
