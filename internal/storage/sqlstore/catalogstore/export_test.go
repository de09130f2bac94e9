package catalogstore

// SetSmallCategoryRowsForTest sets the size under which a category drives
// its listing query, so tests reach both plans with a few products; the
// returned function restores it.
func SetSmallCategoryRowsForTest(n int) (restore func()) {
	old := smallCategoryRows
	smallCategoryRows = n
	return func() { smallCategoryRows = old }
}

// SetSearchVectorsForTest sets the expressions PostgreSQL's search matches
// the name and the whole document against (columns of the test's own, to
// ask the query as it was); the returned function restores them.
func SetSearchVectorsForTest(name, doc string) (restore func()) {
	oldName, oldDoc := pgNameVector, pgDocVector
	pgNameVector, pgDocVector = name, doc
	return func() { pgNameVector, pgDocVector = oldName, oldDoc }
}
