package paypal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryPOSTCarriesRequestID is the grep-style check behind "no outbound
// POST without PayPal-Request-Id": in the client's source, requests are
// built in exactly two functions: call, which sets the header and refuses
// a POST without a key, and fetchToken (the OAuth endpoint, which is not an
// order operation). http.Post and http.PostForm are not used at all. The
// sandbox used by every other test refuses API POSTs without the header,
// and each test checks that none came.
func TestEveryPOSTCarriesRequestID(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	builders := map[string]int{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "http" {
					switch sel.Sel.Name {
					case "NewRequest", "NewRequestWithContext":
						builders[fn.Name.Name]++
					case "Post", "PostForm":
						t.Errorf("%s: %s uses http.%s", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
					}
				}
				if sel.Sel.Name == "Post" || sel.Sel.Name == "PostForm" {
					if _, isPkg := sel.X.(*ast.Ident); !isPkg || sel.X.(*ast.Ident).Name != "http" {
						t.Errorf("%s: %s calls .%s", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
					}
				}
				return true
			})
			if fn.Name.Name == "call" {
				body := string(src[fset.Position(fn.Body.Pos()).Offset:fset.Position(fn.Body.End()).Offset])
				for _, must := range []string{`"PayPal-Request-Id"`, "ErrMissingRequestID", "http.MethodPost"} {
					if !strings.Contains(body, must) {
						t.Errorf("call no longer contains %s", must)
					}
				}
			}
		}
	}
	for fn, n := range builders {
		switch fn {
		case "call", "fetchToken":
			if n != 1 {
				t.Errorf("%s builds %d requests", fn, n)
			}
		case "fetchCert": // a GET of the webhook certificate
		default:
			t.Errorf("%s builds HTTP requests outside call: every API request must go through call", fn)
		}
	}
	if builders["call"] != 1 || builders["fetchToken"] != 1 {
		t.Errorf("request builders = %v", builders)
	}
}
