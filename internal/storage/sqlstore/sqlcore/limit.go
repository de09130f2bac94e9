package sqlcore

import "strconv"

// Limit is " LIMIT n", the row limit written into the statement's text.
//
// A limit bound as a parameter (LIMIT ?) makes SQLite compile the
// statement again on every run: its planner reads the bound limit, so
// binding that parameter marks the program stale (SQLITE_SCHEMA, then
// sqlite3Reprepare on the next step). A kept statement then costs a full
// compile each time, and a statement run once is compiled twice. A
// primary-key read measured 13.7–14.4 µs with the limit written and
// 17.7–20.9 µs with it bound; on a cache-off product page the recompiles
// were 8 % of the shop's CPU. The limits a query takes are few (page
// sizes, batch sizes), so the connection's kept statements stay few.
// OFFSET has no such cost and stays a parameter.
//
// n is an int, never text: nothing a caller passes can change the
// statement beyond its limit.
func Limit(n int) string { return " LIMIT " + strconv.Itoa(n) }
