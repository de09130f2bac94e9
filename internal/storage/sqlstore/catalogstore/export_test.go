package catalogstore

// SetSmallCategoryRowsForTest sets the size under which a category drives
// its listing query, so tests reach both plans with a few products; the
// returned function restores it.
func SetSmallCategoryRowsForTest(n int) (restore func()) {
	old := smallCategoryRows
	smallCategoryRows = n
	return func() { smallCategoryRows = old }
}
