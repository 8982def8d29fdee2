package confirm

import (
	"cmp"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ast/astutil"
)

// pkgSource is the Go files of one package directory, parsed without
// types: the package, its internal tests and its external tests, as
// the go command builds them for go test.
type pkgSource struct {
	dir   string
	fset  *token.FileSet
	files map[string]*srcFile // by absolute path
	tests map[string]*testFunc

	// referrers maps a function or method name to the names of the
	// top-level functions and methods whose bodies mention it: a call
	// graph by name, which over-approximates (methods of every type
	// share their name, a mention need not be a call) and is enough to
	// rank the tests that may reach a report.
	referrers map[string][]string
}

// srcFile is one parsed file of a package directory.
type srcFile struct {
	path string
	src  []byte
	ast  *ast.File
	test bool // a _test.go file
	cgo  bool // imports "C": the go command does not overlay cgo files
}

// testFunc is a test, benchmark or fuzz target.
type testFunc struct {
	name string
	file *srcFile
	decl *ast.FuncDecl
}

// loadSource parses the files of dir that the build context (with tags)
// selects, test files included.
func loadSource(dir, tags string) (*pkgSource, error) {
	ctxt := build.Default
	if tags != "" {
		ctxt.BuildTags = strings.Split(tags, ",")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	s := &pkgSource{dir: dir, fset: token.NewFileSet(), files: make(map[string]*srcFile), tests: make(map[string]*testFunc), referrers: make(map[string][]string)}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		if ok, err := ctxt.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(s.fset, path, src, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			continue // the analysis loaded this package, so this file is not part of it
		}
		sf := &srcFile{path: path, src: src, ast: f, test: strings.HasSuffix(name, "_test.go")}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				sf.cgo = true
			}
		}
		s.files[path] = sf
		s.index(sf)
	}
	return s, nil
}

// index records the tests of a file and the names its functions mention.
func (s *pkgSource) index(f *srcFile) {
	for _, decl := range f.ast.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			// What a package-level variable's initializer calls runs
			// when the package initializes, as init does.
			s.mentions("init", gd)
			continue
		}
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if f.test && fd.Recv == nil && isTestName(fd.Name.Name) && fd.Name.Name != "TestMain" && fd.Type.Params.NumFields() == 1 {
			s.tests[fd.Name.Name] = &testFunc{name: fd.Name.Name, file: f, decl: fd}
		}
		s.mentions(fd.Name.Name, fd.Body)
	}
}

// mentions records that function from mentions every identifier in n.
func (s *pkgSource) mentions(from string, n ast.Node) {
	seen := make(map[string]bool)
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !seen[id.Name] && id.Name != from {
			seen[id.Name] = true
			s.referrers[id.Name] = append(s.referrers[id.Name], from)
		}
		return true
	})
}

// isTestName reports whether name is that of a test, benchmark or fuzz
// target: the prefix, then nothing or a character that is not a
// lower-case letter (as the go command decides).
func isTestName(name string) bool {
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if rest == "" {
				return true
			}
			r, _ := utf8.DecodeRuneInString(rest)
			return !unicode.IsLower(r)
		}
	}
	return false
}

// chainRoot finds the test a goroutine's start chain begins at:
// "goroutine started here: pkg.TestX → pkg.f → go pkg.f$1" names
// TestX (a closure of it, TestX$1, as TestX).
var chainRoot = regexp.MustCompile(`^goroutine started here: (?:\S*[.)])?((?:Test|Benchmark|Fuzz)[^\s.$→]*)`)

// candidates returns the tests that may run the code of a report, the
// ones its start chains name first, then by the fewest calls from the
// test to a function holding one of the report's positions; at most max.
func (s *pkgSource) candidates(r *Report, max int) []string {
	var out []string
	add := func(name string) {
		if s.tests[name] != nil && !slices.Contains(out, name) && len(out) < max {
			out = append(out, name)
		}
	}
	for _, rel := range r.Related {
		if m := chainRoot.FindStringSubmatch(rel.Message); m != nil {
			add(m[1])
		}
	}
	// Breadth-first over the referrers, from the functions that hold
	// the report's positions.
	dist := make(map[string]int)
	var queue []string
	for _, p := range append([]Position{r.Posn}, relatedPositions(r)...) {
		if fn := s.enclosingFunc(p); fn != "" && dist[fn] == 0 {
			dist[fn] = 1
			queue = append(queue, fn)
		}
	}
	var reached []string
	initReached := false
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		if s.tests[fn] != nil {
			reached = append(reached, fn)
		}
		initReached = initReached || fn == "init"
		for _, caller := range s.referrers[fn] {
			if dist[caller] == 0 {
				dist[caller] = dist[fn] + 1
				queue = append(queue, caller)
			}
		}
	}
	slices.SortStableFunc(reached, func(a, b string) int { return cmp.Or(cmp.Compare(dist[a], dist[b]), cmp.Compare(a, b)) })
	for _, name := range reached {
		add(name)
	}
	if initReached && len(out) == 0 {
		// Every test runs the package's initialization: the first will do.
		for _, name := range slices.Sorted(maps.Keys(s.tests)) {
			if strings.HasPrefix(name, "Test") {
				add(name)
				break
			}
		}
	}
	return out
}

// relatedPositions returns the related positions of r in files of the
// same directory, but not those of go statements: a start chain names
// its test already, and the function holding a go statement also holds
// the code it starts when that is a function literal.
func relatedPositions(r *Report) []Position {
	var out []Position
	for _, rel := range r.Related {
		if filepath.Dir(rel.Posn.Filename) == filepath.Dir(r.Posn.Filename) && !strings.HasPrefix(rel.Message, "goroutine started here") {
			out = append(out, rel.Posn)
		}
	}
	return out
}

// locate returns the file of a position and its token.Pos.
func (s *pkgSource) locate(p Position) (*srcFile, token.Pos, bool) {
	f := s.files[p.Filename]
	if f == nil {
		abs, err := filepath.Abs(p.Filename)
		if f = s.files[abs]; err != nil || f == nil {
			return nil, token.NoPos, false
		}
	}
	tf := s.fset.File(f.ast.FileStart)
	if p.Line < 1 || p.Line > tf.LineCount() {
		return nil, token.NoPos, false
	}
	off := tf.Offset(tf.LineStart(p.Line)) + max(p.Column, 1) - 1
	if off > tf.Size() {
		return nil, token.NoPos, false
	}
	return f, tf.Pos(off), true
}

// enclosingFunc names the top-level function or method whose
// declaration holds p (a method by its name alone, as the referrers
// graph keys it), or returns "".
func (s *pkgSource) enclosingFunc(p Position) string {
	f, pos, ok := s.locate(p)
	if !ok {
		return ""
	}
	for _, decl := range f.ast.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos <= fd.End() {
			return fd.Name.Name
		}
	}
	return ""
}

// stmtStart returns the byte offset, in its file, of the statement that
// holds p and that a statement may be inserted before: an element of a
// block or of a case's body. A position in the header of a for or if
// statement gives the whole statement; one outside any function body
// gives nothing.
func (s *pkgSource) stmtStart(p Position) (*srcFile, int, bool) {
	f, pos, ok := s.locate(p)
	if !ok || f.cgo {
		return nil, 0, false
	}
	path, _ := astutil.PathEnclosingInterval(f.ast, pos, pos)
	for i, n := range path {
		stmt, ok := n.(ast.Stmt)
		if !ok || i+1 >= len(path) {
			continue
		}
		switch stmt.(type) {
		case *ast.CaseClause, *ast.CommClause:
			continue // an element of a switch's or select's body, but not a statement
		}
		inList := false
		switch parent := path[i+1].(type) {
		case *ast.BlockStmt:
			inList = slices.Contains(parent.List, stmt)
		case *ast.CaseClause:
			inList = slices.Contains(parent.Body, stmt)
		case *ast.CommClause:
			inList = slices.Contains(parent.Body, stmt)
		}
		if inList {
			return f, s.fset.Position(stmt.Pos()).Offset, true
		}
	}
	return nil, 0, false
}

// stmtLine returns the first line of the innermost statement that holds
// p, or 0.
func (s *pkgSource) stmtLine(p Position) int {
	f, pos, ok := s.locate(p)
	if !ok {
		return 0
	}
	path, _ := astutil.PathEnclosingInterval(f.ast, pos, pos)
	for _, n := range path {
		if stmt, ok := n.(ast.Stmt); ok {
			return s.fset.Position(stmt.Pos()).Line
		}
	}
	return 0
}

// isCall reports whether p is in a call of a function or method named
// by a selector (atomic.AddInt64, mu.Lock) within its statement.
func (s *pkgSource) isCall(p Position) bool {
	f, pos, ok := s.locate(p)
	if !ok {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(f.ast, pos, pos)
	for _, n := range path {
		switch n := n.(type) {
		case *ast.CallExpr:
			if _, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				return true
			}
		case ast.Stmt:
			return false
		}
	}
	return false
}

// waitReasons returns the states a goroutine blocked in the operation at
// p may show in a dump ("chan send", "sync.Mutex.Lock"), by the syntax
// there; nil when the position is a call of some other function, which
// may block in any of them.
func (s *pkgSource) waitReasons(p Position) []string {
	f, pos, ok := s.locate(p)
	if !ok {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(f.ast, pos, pos)
	chans := []string{"chan send", "chan receive", "select"}
	for _, n := range path {
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt, *ast.CommClause, *ast.RangeStmt:
			return chans // a select of one case blocks as its operation
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				return chans
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil
			}
			switch sel.Sel.Name {
			case "Lock":
				return []string{"sync.Mutex.Lock", "sync.RWMutex.Lock"}
			case "RLock":
				return []string{"sync.RWMutex.RLock"}
			case "Wait":
				return []string{"sync.WaitGroup.Wait", "sync.Cond.Wait", "semacquire"}
			}
			return nil
		case ast.Stmt:
			return nil
		}
	}
	return nil
}
