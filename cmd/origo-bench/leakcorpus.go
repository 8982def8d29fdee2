package main

import (
	"cmp"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/origo-dev/origo/analyzers/kinds"
)

// The goroutine-leak corpus is the program that Go's goroutine leak
// profile is tested on, $GOROOT/src/runtime/testdata/testgoroutineleakprofile:
// micro tests of each blocking operation (simple.go), common leak
// patterns (commonpatterns.go), stress tests (stresstests.go), and in
// goker/ the GoKer kernels of real blocking bugs, one per file. The test
// $GOROOT/src/runtime/goroutineleakprofile_test.go runs each case and
// lists the goroutines it expects to leak, as regular expressions over
// "function(args) [wait reason]". Scoring origo's deadlock (and blocking)
// reports on it says how many real blocking bugs origo sees statically.
const (
	leakCorpusPath = "src/runtime/testdata/testgoroutineleakprofile"
	leakTestPath   = "src/runtime/goroutineleakprofile_test.go"
	leakCorpusPkg  = "main"
	leakCaseType   = "testCase" // the element type of the test case lists
	gokerDir       = "goker"
)

// leakCorpusExcluded are corpus files (slash paths relative to the
// corpus) that cannot be vetted in a module of their own. None today:
// every file imports public standard packages only (runtime/pprof,
// sync, unsafe...). Files of another package are left out by their
// package clause.
var leakCorpusExcluded = []string{}

// benchLeakCorpus scores origo's blocking diagnostics on the goroutine
// leak corpus of the Go installation that runs it.
func benchLeakCorpus(args []string) error {
	fs := flag.NewFlagSet("leakcorpus", flag.ExitOnError)
	origo := fs.String("origo", "", "the origo binary (default: built from the repository of the current directory)")
	analyzers := fs.String("analyzers", "deadlock,blocking", "score the diagnostics of these analyzers (comma-separated)")
	keep := fs.String("keep", "", "write the scratch module to this directory and keep it")
	verbose := fs.Bool("v", false, "list every case with its leaks and the diagnostics outside any expectation")
	confirm := fs.Bool("confirm", false, "write a test per case, run the standalone origo -confirm on the corpus (it runs the cases) and count the diagnostics confirmed, matching an expected leak or not; one in a case expecting no leak is a bug of -confirm")
	budget := fs.Duration("confirm.budget", 0, "origo's -confirm.budget (0: its default)")
	parallel := fs.Int("confirm.parallel", 0, "origo's -confirm.parallel (0: its default)")
	fs.Parse(args)
	if fs.NArg() > 0 {
		usage()
	}
	names := splitList(*analyzers)
	if len(names) == 0 {
		return fmt.Errorf("-analyzers: no analyzer named")
	}
	goroot, goversion, err := goEnv()
	if err != nil {
		return err
	}
	corpusDir := filepath.Join(goroot, filepath.FromSlash(leakCorpusPath))
	testFile := filepath.Join(goroot, filepath.FromSlash(leakTestPath))
	exp, err := parseLeakExpectations(testFile, nil)
	if err != nil {
		return err
	}
	files, err := selectLeakCorpus(corpusDir)
	if err != nil {
		return err
	}
	tmp, mod, err := scratch(*keep, "leakcorpus")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := removeCasesTests(mod); err != nil {
		return err
	}
	if err := writeCorpusModule(mod, "leakcorpus", corpusDir, files); err != nil {
		return err
	}
	if *origo, err = origoBinary(*origo, tmp); err != nil {
		return err
	}
	c, err := parseLeakCorpus(mod, files)
	if err != nil {
		return err
	}
	var res *vetResult
	var run *confirmRun
	var elapsed time.Duration
	if *confirm {
		warnings, err := writeCasesTests(mod, c)
		if err != nil {
			return err
		}
		exp.skipped = append(exp.skipped, warnings...)
		flags := confirmFlags(*budget, *parallel)
		for _, name := range names {
			flags = append(flags, "-"+name)
		}
		start := time.Now()
		if run, err = runConfirmJSON(mod, *origo, flags...); err != nil {
			return err
		}
		elapsed = time.Since(start)
		for _, e := range run.errors {
			exp.skipped = append(exp.skipped, "origo: "+e)
		}
		res, run.outcomes = withoutConfirmation(run.res, run.outcomes)
	} else if res, err = runVetJSON(mod, *origo); err != nil {
		return err
	}
	var diags []diag
	for _, name := range names {
		diags = append(diags, res.diags[name]...)
	}
	r := scoreLeaks(c, exp.cases, diags)
	r.warnings = append(exp.skipped, r.warnings...)
	printLeakReport(r, goversion, strings.Join(names, ","), *verbose)
	var confirmErr error
	if *confirm {
		confirmErr = printLeakConfirmations(os.Stdout, r, run.outcomes, run.summary, elapsed, *verbose)
	}
	if len(diags) == 0 {
		others := strings.Join(slices.Sorted(maps.Keys(res.diags)), " ")
		fmt.Printf("warning: no diagnostics from analyzers %s (analyzers that reported: %s)\n", strings.Join(names, ","), cmp.Or(others, "none"))
	}
	for _, name := range slices.Sorted(maps.Keys(res.errors)) {
		if !slices.Contains(names, name) && !*verbose {
			continue
		}
		for _, e := range res.errors[name] {
			fmt.Printf("warning: analyzer %s failed on %s\n", name, e)
		}
	}
	if *keep != "" {
		fmt.Printf("scratch module kept in %s\n", mod)
	}
	return confirmErr
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// --- Expectations -------------------------------------------------------

// leakKind is a set of kinds of blocking operation. An expected leak has
// the kind of its wait reason, a diagnostic the kinds its message names;
// they match when the sets meet.
type leakKind uint8

const (
	kindSend      leakKind = 1 << iota // chan send, nil chan too
	kindLock                           // sync.Mutex.Lock, sync.RWMutex.Lock and RLock
	kindWaitGroup                      // sync.WaitGroup.Wait
	kindCond                           // sync.Cond.Wait
	kindRecv                           // chan receive, nil chan too, a range over a channel
	kindSelect                         // select, select {}
)

func (k leakKind) String() string {
	var parts []string
	for i, name := range []string{"send", "lock", "waitgroup", "cond", "receive", "select"} {
		if k&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// waitReasons are the wait reasons of the runtime (runtime2.go's
// waitReasonStrings) that a leaked goroutine can show, with their kind.
// An expected leak's regular expression is matched against
// "function() [reason]" for each of them.
var waitReasons = []struct {
	reason string
	kind   leakKind
}{
	{"chan receive", kindRecv},
	{"chan receive (nil chan)", kindRecv},
	{"chan send", kindSend},
	{"chan send (nil chan)", kindSend},
	{"select", kindSelect},
	{"select (no cases)", kindSelect},
	{"sync.Mutex.Lock", kindLock},
	{"sync.RWMutex.Lock", kindLock},
	{"sync.RWMutex.RLock", kindLock},
	{"sync.WaitGroup.Wait", kindWaitGroup},
	{"sync.Cond.Wait", kindCond},
}

// A diagnostic's kinds come from its category, the kind of report it is
// (see package kinds): a lock kind for a mutex deadlock, the kind of the
// operation that blocks forever for analyzers/blocking's reports. A
// report of blocking while holding a lock is both a lock report (the
// goroutine that needs the lock blocks in Lock) and one of the operation
// that blocks, read from the source at the report's position, where the
// operation is (see opAt). An unlock of an unlocked mutex has no kind: it
// is a fatal error, not a leak. So has a report of another analyzer.
var categoryKinds = map[string]leakKind{
	kinds.DoubleLock.ID:               kindLock,
	kinds.RWMutexUpgrade.ID:           kindLock,
	kinds.RecursiveReadLock.ID:        kindLock,
	kinds.LockLeftHeld.ID:             kindLock,
	kinds.LockAfterLeftHeld.ID:        kindLock,
	kinds.LockKeptByReturned.ID:       kindLock,
	kinds.LockOrderInversion.ID:       kindLock,
	kinds.LockOrderCycle.ID:           kindLock,
	kinds.BlockingWhileHoldingLock.ID: kindLock, // and the operation's
	kinds.SendBlocks.ID:               kindSend,
	kinds.ReceiveBlocks.ID:            kindRecv,
	kinds.RangeBlocks.ID:              kindRecv,
	kinds.SelectBlocks.ID:             kindSelect,
	kinds.WaitGroupBlocks.ID:          kindWaitGroup,
	kinds.CondWaitBlocks.ID:           kindCond,
	kinds.LockBlocks.ID:               kindLock,
}

// titled returns the kind whose title begins msg, the message of a
// sequel (see kinds.Sequel).
func titled(msg string) (kinds.Kind, bool) {
	for _, k := range kinds.All {
		if strings.HasPrefix(msg, k.Title+":") {
			return k, true
		}
	}
	return kinds.Kind{}, false
}

// messageHead is the part of a message before its first ';', what -v
// prints of it.
func messageHead(msg string) string {
	head, _, _ := strings.Cut(msg, ";")
	return head
}

// opAt returns the kind of the blocking operation at line:col of fn's
// source: a send statement's arrow, a receive's <-, or the parenthesis
// of a call of a method Wait, which is a WaitGroup's or a Cond's (the
// corpus is not type-checked: both kinds); 0 if there is none.
func opAt(c *leakCorpus, fn *leakFunc, line, col int) leakKind {
	if fn == nil {
		return 0
	}
	at := func(p token.Pos) bool {
		posn := c.fset.Position(p)
		return posn.Line == line && posn.Column == col
	}
	var k leakKind
	ast.Inspect(fn.node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			if at(n.Arrow) {
				k = kindSend
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && at(n.OpPos) {
				k = kindRecv
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" && at(n.Lparen) {
				k = kindWaitGroup | kindCond
			}
		}
		return k == 0
	})
	return k
}

// leakCase is a test case of goroutineleakprofile_test.go.
type leakCase struct {
	name  string
	list  string // the variable of its list: microTests, gokerTestCases...
	flaky bool   // made by makeFlakyTest: its leaks are real but not always seen
	leaks []*expectedLeak

	// Set by scoreLeaks.
	group  string    // gokerDir or "patterns"
	entry  *leakFunc // the function registered under the case's name
	alarms []*leakDiag
}

// expectedLeak is one expected leak of a case: a goroutine whose
// function and wait reason match pattern.
type expectedLeak struct {
	pattern string
	re      *regexp.Regexp

	// Set by scoreLeaks.
	funcs  []*leakFunc // the corpus functions the pattern names
	kind   leakKind    // of the wait reasons the pattern matches
	direct []*leakDiag // in an expected function's top-level declaration
	callee []*leakDiag // else in a declaration one of them reaches
}

// leakExpectations is what parseLeakExpectations found.
type leakExpectations struct {
	cases   []*leakCase
	skipped []string // elements of case lists not understood, as warnings
}

// parseLeakExpectations reads the test cases of goroutineleakprofile_test.go
// (src, if not nil, stands for the file's content, as for go/parser). A
// case list is a composite literal []testCase{...}; each element is a
// call such as makeTest("Name", `leak regexp`, ...) or
// makeFlakyTest(...): its first argument, a string, is the case's name,
// its other string arguments are its expected leaks, and it is flaky
// when the called function's name says Flaky or an argument is true
// (makeAnyTest(name, flaky, repetitions, leaks...)).
func parseLeakExpectations(filename string, src any) (*leakExpectations, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	// The variable each composite literal is assigned to.
	lists := make(map[*ast.CompositeLit]string)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, rhs := range n.Rhs {
				if lit, ok := rhs.(*ast.CompositeLit); ok && i < len(n.Lhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						lists[lit] = id.Name
					}
				}
			}
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if lit, ok := v.(*ast.CompositeLit); ok && i < len(n.Names) {
					lists[lit] = n.Names[i].Name
				}
			}
		}
		return true
	})
	exp := new(leakExpectations)
	nlists := 0
	var perr error
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || perr != nil {
			return perr == nil
		}
		at, ok := lit.Type.(*ast.ArrayType)
		if !ok {
			return true
		}
		if id, ok := at.Elt.(*ast.Ident); !ok || id.Name != leakCaseType {
			return true
		}
		nlists++
		for _, elt := range lit.Elts {
			tc, err := parseLeakCase(elt)
			if err != nil {
				perr = fmt.Errorf("%s: %v", fset.Position(elt.Pos()), err)
				return false
			}
			if tc == nil {
				exp.skipped = append(exp.skipped, fmt.Sprintf("%s: a test case not understood, left out", fset.Position(elt.Pos())))
				continue
			}
			tc.list = lists[lit]
			exp.cases = append(exp.cases, tc)
		}
		return false
	})
	if perr != nil {
		return nil, perr
	}
	if nlists == 0 {
		return nil, fmt.Errorf("%s: no []%s literal", filename, leakCaseType)
	}
	return exp, nil
}

// parseLeakCase parses one element of a case list, or returns nil if it
// is not a call whose first argument is a string.
func parseLeakCase(elt ast.Expr) (*leakCase, error) {
	call, ok := elt.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil, nil
	}
	name, ok := stringLit(call.Args[0])
	if !ok {
		return nil, nil
	}
	tc := &leakCase{name: name}
	if id, ok := call.Fun.(*ast.Ident); ok && strings.Contains(id.Name, "Flaky") {
		tc.flaky = true
	}
	for _, arg := range call.Args[1:] {
		if id, ok := arg.(*ast.Ident); ok && id.Name == "true" {
			tc.flaky = true
		}
		pattern, ok := stringLit(arg)
		if !ok {
			continue
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("case %s: %v", name, err)
		}
		tc.leaks = append(tc.leaks, &expectedLeak{pattern: pattern, re: re})
	}
	return tc, nil
}

// stringLit returns the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// --- The corpus ----------------------------------------------------------

// selectLeakCorpus returns the slash paths, relative to dir and sorted,
// of the corpus files that can be vetted in a module of their own: the
// Go files of package main in dir and its subdirectories, but the
// excluded ones.
func selectLeakCorpus(dir string) ([]string, error) {
	var files []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if slices.Contains(leakCorpusExcluded, rel) || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		if f.Name.Name == leakCorpusPkg {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no files of package %s in %s", leakCorpusPkg, dir)
	}
	slices.Sort(files)
	return files, nil
}

// leakFunc is a function of the corpus: a declaration or a closure.
type leakFunc struct {
	name string // as in a traceback, without "main.": F, (*T).M, T.M, F.func1, F.func1.2
	file string // slash path relative to the corpus
	node ast.Node
	body *ast.BlockStmt
	top  *leakFunc // the top-level declaration holding it; itself for one
	line int
}

// leakCorpus is the parsed corpus.
type leakCorpus struct {
	fset   *token.FileSet
	files  []string // slash paths, sorted
	funcs  []*leakFunc
	byFile map[string][]*leakFunc // in source order
	// top-level declarations by file and name: functions, and methods
	// (several types may have a method of one name).
	decls   map[string]map[string]*leakFunc
	methods map[string]map[string][]*leakFunc
	reach   map[ast.Node][]*leakFunc // memo of reaches
}

// parseLeakCorpus parses the corpus files in dir and names its functions.
func parseLeakCorpus(dir string, files []string) (*leakCorpus, error) {
	c := &leakCorpus{
		fset:    token.NewFileSet(),
		files:   slices.Sorted(slices.Values(files)),
		byFile:  make(map[string][]*leakFunc),
		decls:   make(map[string]map[string]*leakFunc),
		methods: make(map[string]map[string][]*leakFunc),
		reach:   make(map[ast.Node][]*leakFunc),
	}
	// Closures of package-level initializers and the init functions are
	// numbered across the files of a package, in file name order, as the
	// compiler does.
	globs := make(map[string]int)
	inits := make(map[string]int)
	for _, rel := range c.files {
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, filepath.FromSlash(rel)), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkg := path.Dir(rel)
		c.decls[rel] = make(map[string]*leakFunc)
		c.methods[rel] = make(map[string][]*leakFunc)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				name := tracebackName(decl)
				if decl.Recv == nil && decl.Name.Name == "init" {
					name = fmt.Sprintf("init.%d", inits[pkg])
					inits[pkg]++
				}
				fn := c.add(rel, name, decl, decl.Body, nil)
				if decl.Recv == nil {
					c.decls[rel][decl.Name.Name] = fn
				} else {
					c.methods[rel][decl.Name.Name] = append(c.methods[rel][decl.Name.Name], fn)
				}
				if decl.Body != nil {
					c.addClosures(rel, fn, decl.Body, name+".func", nil)
				}
			case *ast.GenDecl:
				n := globs[pkg]
				c.addClosures(rel, nil, decl, "glob..func", &n)
				globs[pkg] = n
			}
		}
	}
	return c, nil
}

func (c *leakCorpus) add(rel, name string, node ast.Node, body *ast.BlockStmt, top *leakFunc) *leakFunc {
	fn := &leakFunc{name: name, file: rel, node: node, body: body, top: top, line: c.fset.Position(node.Pos()).Line}
	if top == nil {
		fn.top = fn
	}
	c.funcs = append(c.funcs, fn)
	c.byFile[rel] = append(c.byFile[rel], fn)
	return fn
}

// addClosures names the function literals directly in n (not those in
// other literals) as the compiler does, prefix and a number counted in
// source order: F.func1, F.func2... in a declared function F (prefix
// "F.func"), F.func1.1, F.func1.2... in the closure F.func1 (prefix
// "F.func1."), glob..func1... in package-level initializers, whose
// counter is the package's. The wrappers of go and defer statements
// (F.gowrap1) have counters of their own and are not shown in
// tracebacks, so they do not shift the numbers. A closure of a function
// inlined elsewhere gets another name in that copy, the inlined
// functions' names joined to the caller's (Cockroach24808.func2.(*Compactor_cockroach24808).Start.1,
// checked against go tool nm of the corpus): the source name is kept,
// and the expectations' regular expressions, unanchored, name no such
// copy today. top is the top-level declaration that holds n, nil for an
// initializer.
func (c *leakCorpus) addClosures(rel string, top *leakFunc, n ast.Node, prefix string, counter *int) {
	if counter == nil {
		counter = new(int)
	}
	ast.Inspect(n, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		*counter++
		fn := c.add(rel, prefix+strconv.Itoa(*counter), lit, lit.Body, top)
		c.addClosures(rel, fn.top, lit.Body, fn.name+".", nil)
		return false
	})
}

// tracebackName names a declared function as a traceback does: F, or
// for a method (*T).M or T.M (funcDeclName), with [...] after a generic
// receiver type: (*T[...]).M.
func tracebackName(decl *ast.FuncDecl) string {
	name := funcDeclName(decl)
	if decl.Recv == nil || len(decl.Recv.List) == 0 {
		return name
	}
	t := decl.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		dot := strings.LastIndexByte(name, '.')
		if strings.HasPrefix(name, "(*") {
			dot-- // before the ")"
		}
		return name[:dot] + "[...]" + name[dot:]
	}
	return name
}

// corpusFile returns the corpus file of a path that go vet printed: the
// longest corpus path that ends it (go vet's paths need not be spelled
// as ours, with symbolic links in the temp directory), or "".
func (c *leakCorpus) corpusFile(p string) string {
	p = filepath.ToSlash(p)
	best := ""
	for _, rel := range c.files {
		if (p == rel || strings.HasSuffix(p, "/"+rel)) && len(rel) > len(best) {
			best = rel
		}
	}
	return best
}

// enclosing returns the innermost function of file rel whose extent
// holds line:col, or nil.
func (c *leakCorpus) enclosing(rel string, line, col int) *leakFunc {
	var best *leakFunc
	for _, fn := range c.byFile[rel] {
		start, end := c.fset.Position(fn.node.Pos()), c.fset.Position(fn.node.End())
		if before(line, col, start.Line, start.Column) || before(end.Line, end.Column, line, col) {
			continue
		}
		if best == nil || fn.node.Pos() >= best.node.Pos() && fn.node.End() <= best.node.End() {
			best = fn
		}
	}
	return best
}

func before(l1, c1, l2, c2 int) bool {
	return l1 < l2 || l1 == l2 && c1 < c2
}

// reaches returns the top-level declarations that code of fn may run:
// fn's own, and the declarations of its file that fn's body names (a
// function by its identifier, a method by its name after a dot, of any
// type), and so on transitively from their bodies. References stay in
// the file: the corpus keeps each kernel and each pattern with its
// helpers in one file, and goker's many methods named Start or Run must
// not join kernels.
func (c *leakCorpus) reaches(fn *leakFunc) []*leakFunc {
	if r, ok := c.reach[fn.node]; ok {
		return r
	}
	seen := map[*leakFunc]bool{fn.top: true}
	out := []*leakFunc{fn.top}
	var work []ast.Node
	if fn.body != nil {
		work = append(work, fn.body)
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, d := range c.refs(fn.file, n) {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				if d.body != nil {
					work = append(work, d.body)
				}
			}
		}
	}
	slices.SortFunc(out, func(x, y *leakFunc) int { return cmp.Compare(x.line, y.line) })
	c.reach[fn.node] = out
	return out
}

// refs returns the top-level declarations of file rel that n names.
func (c *leakCorpus) refs(rel string, n ast.Node) []*leakFunc {
	var out []*leakFunc
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			out = append(out, c.methods[rel][n.Sel.Name]...)
			ast.Inspect(n.X, visit)
			return false
		case *ast.Ident:
			if d := c.decls[rel][n.Name]; d != nil {
				out = append(out, d)
			}
		}
		return true
	}
	ast.Inspect(n, visit)
	return out
}

// startedAt returns the functions that a go statement at line of file
// rel may start: the function literal it calls, the function it names,
// or the methods of the name after its dot.
func (c *leakCorpus) startedAt(rel string, line int) []*leakFunc {
	var out []*leakFunc
	for _, fn := range c.byFile[rel] {
		if fn.top != fn || fn.body == nil {
			continue
		}
		ast.Inspect(fn.body, func(n ast.Node) bool {
			g, ok := n.(*ast.GoStmt)
			if !ok || c.fset.Position(g.Pos()).Line != line {
				return true
			}
			switch f := g.Call.Fun.(type) {
			case *ast.FuncLit:
				for _, lf := range c.byFile[rel] {
					if lf.node == f {
						out = append(out, lf)
					}
				}
			case *ast.Ident:
				if d := c.decls[rel][f.Name]; d != nil {
					out = append(out, d)
				}
			case *ast.SelectorExpr:
				out = append(out, c.methods[rel][f.Sel.Name]...)
			}
			return true
		})
	}
	return out
}

// subjectREs find the goroutine a report says blocks, when it names it
// by its go statement: right after its kind ("receive blocks forever:
// goroutine started at f.go:12 receives from ..."), or, at the other
// side of a lock order inversion (a related position), first ("the other
// side of the deadlock: goroutine started at f.go:12 locks a here while
// holding b").
var subjectREs = []*regexp.Regexp{
	regexp.MustCompile(`^[^:]*(?:blocks forever|while holding a lock)[^:]*: (?:the )?goroutines? started at (\S+\.go):(\d+)`),
	regexp.MustCompile(`^` + regexp.QuoteMeta(kinds.OtherSide) + `: goroutine started at (\S+\.go):(\d+)(?:, in a loop)? locks \S+ here while holding`),
}

// subjectOf returns the file and line of the go statement that starts
// the goroutine a message says blocks (see subjectREs).
func subjectOf(msg string) (file string, line int, ok bool) {
	for _, re := range subjectREs {
		if m := re.FindStringSubmatch(msg); m != nil {
			line, err := strconv.Atoi(m[2])
			return m[1], line, err == nil
		}
	}
	return "", 0, false
}

// subject returns the functions that the goroutine a diagnostic in file
// rel names may start with (see subjectREs), or none.
func (c *leakCorpus) subject(rel, msg string) []*leakFunc {
	file, line, ok := subjectOf(msg)
	if !ok {
		return nil
	}
	return c.startedAt(path.Join(path.Dir(rel), file), line)
}

// --- Scoring ---------------------------------------------------------------

// leakDiag is a diagnostic placed in the corpus.
type leakDiag struct {
	diag
	file      string // corpus path, "" if outside the corpus
	line, col int
	fn        *leakFunc // innermost enclosing function, or nil
	kind      leakKind
	matched   bool // counts for some expected leak
	// of is the report whose other side of a deadlock, or whose sequel,
	// this is (a related position), or nil for a report's own position. A report counts
	// once, at its own position, matched when one of its places is.
	of *leakDiag
}

// leakGroup is the score of one part of the corpus.
type leakGroup struct {
	name  string
	cases []*leakCase
	diags []*leakDiag // sorted by position
}

// leakReport is the score of origo on the corpus.
type leakReport struct {
	files    int
	groups   []*leakGroup // goker, then patterns
	warnings []string
}

// groupOf is the part of the corpus of a corpus path: gokerDir for the
// kernels, "patterns" for the micro tests, common patterns and stress
// tests of the main directory.
func groupOf(rel string) string {
	if strings.HasPrefix(rel, gokerDir+"/") {
		return gokerDir
	}
	return "patterns"
}

// scoreLeaks resolves each case and its expected leaks in the corpus and
// matches the diagnostics with them. A case's entry is the function
// registered under its name (register("Name", F) in an init function),
// and its expected leaks name functions of the entry's package: those
// whose traceback line, "function() [reason]", the leak's regular
// expression matches for some wait reason. A diagnostic counts for an
// expected leak when its kinds meet the leak's kind and it is in the
// top-level declaration of an expected function (direct), or else in a
// declaration that the expected function reaches (callee: where the
// goroutine may block, doubleSend for DoubleSend.func3), or when its
// message names the goroutine that blocks by a go statement that starts
// the expected function (callee too: it blocks in code that function
// reaches through a function value, which the syntactic reach does not
// follow; the runtime names a leaked goroutine by the function its go
// statement started). A case
// expecting no leak is flagged by the diagnostics in what its entry
// reaches. Diagnostics are counted once each.
func scoreLeaks(c *leakCorpus, cases []*leakCase, diags []diag) *leakReport {
	r := &leakReport{files: len(c.files)}
	groups := map[string]*leakGroup{gokerDir: {name: gokerDir}, "patterns": {name: "patterns"}}
	r.groups = []*leakGroup{groups[gokerDir], groups["patterns"]}

	entries := c.registered()

	for _, tc := range cases {
		tc.entry = entries[tc.name]
		pkg := ""
		switch {
		case tc.entry != nil:
			tc.group, pkg = groupOf(tc.entry.file), path.Dir(tc.entry.file)
		case strings.Contains(strings.ToLower(tc.list), gokerDir):
			tc.group = gokerDir
			r.warnings = append(r.warnings, fmt.Sprintf("case %s: no function registered under its name", tc.name))
		default:
			tc.group = "patterns"
			r.warnings = append(r.warnings, fmt.Sprintf("case %s: no function registered under its name", tc.name))
		}
		groups[tc.group].cases = append(groups[tc.group].cases, tc)
		for _, l := range tc.leaks {
			for _, fn := range c.funcs {
				if pkg != "" && path.Dir(fn.file) != pkg {
					continue
				}
				matched := false
				for _, wr := range waitReasons {
					if l.re.MatchString(fn.name + "() [" + wr.reason + "]") {
						l.kind |= wr.kind
						matched = true
					}
				}
				if matched {
					l.funcs = append(l.funcs, fn)
				}
			}
			if len(l.funcs) == 0 {
				r.warnings = append(r.warnings, fmt.Sprintf("case %s: leak %s names no function of the corpus", tc.name, l.pattern))
			}
		}
	}

	seen := make(map[diagKey]bool)
	for _, d := range diags {
		if seen[d.key()] {
			continue
		}
		seen[d.key()] = true
		ld := c.place(d, categoryKinds[d.Category])
		if d.Category == kinds.BlockingWhileHoldingLock.ID {
			ld.kind |= opAt(c, ld.fn, ld.line, ld.col)
		}
		g := groups["patterns"]
		if ld.file != "" {
			g = groups[groupOf(ld.file)]
		}
		g.diags = append(g.diags, ld)
		c.match(cases, ld)
		// The other sides of a deadlock, where its other goroutines block
		// in a Lock: related positions of the one report.
		// And the operations that block forever as its consequence:
		// related positions too, their messages beginning with their
		// kind's title.
		for _, rel := range d.Related {
			if strings.HasPrefix(rel.Message, kinds.OtherSide+":") {
				side := c.place(diag{Posn: rel.Posn, Category: d.Category, Message: rel.Message}, kindLock)
				side.of = ld
				c.match(cases, side)
			}
			if msg, ok := strings.CutPrefix(rel.Message, kinds.Sequel+": "); ok {
				if k, ok := titled(msg); ok {
					seq := c.place(diag{Posn: rel.Posn, Category: k.ID, Message: msg}, categoryKinds[k.ID])
					seq.of = ld
					c.match(cases, seq)
				}
			}
		}
	}
	for _, g := range r.groups {
		slices.SortFunc(g.diags, func(x, y *leakDiag) int {
			return cmp.Or(cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line), cmp.Compare(x.col, y.col),
				cmp.Compare(x.Posn, y.Posn), cmp.Compare(x.Message, y.Message))
		})
	}
	return r
}

// registered returns the entries of the corpus's cases, by name: the
// functions registered by register("Name", F) in an init function (or
// registerInit).
func (c *leakCorpus) registered() map[string]*leakFunc {
	entries := make(map[string]*leakFunc)
	for _, rel := range c.files {
		for _, fn := range c.byFile[rel] {
			if fn.top != fn || fn.body == nil {
				continue
			}
			ast.Inspect(fn.body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); !ok || !strings.HasPrefix(id.Name, "register") {
					return true
				}
				name, ok := stringLit(call.Args[0])
				id, ok2 := call.Args[1].(*ast.Ident)
				if ok && ok2 && c.decls[rel][id.Name] != nil {
					entries[name] = c.decls[rel][id.Name]
				}
				return true
			})
		}
	}
	return entries
}

// place places a diagnostic, or the other side of one, in the corpus,
// with its kinds.
func (c *leakCorpus) place(d diag, kind leakKind) *leakDiag {
	ld := &leakDiag{diag: d, kind: kind}
	if file, line, col, ok := splitPosn(d.Posn); ok {
		if ld.file = c.corpusFile(file); ld.file != "" {
			ld.line, ld.col = line, col
			ld.fn = c.enclosing(ld.file, line, col)
		}
	}
	return ld
}

// match matches a placed diagnostic with the expected leaks of cases
// (see scoreLeaks).
func (c *leakCorpus) match(cases []*leakCase, ld *leakDiag) {
	if ld.fn == nil {
		return
	}
	matched := func() {
		ld.matched = true
		if ld.of != nil {
			ld.of.matched = true
		}
	}
	subjects := c.subject(ld.file, ld.Message)
	for _, tc := range cases {
		if len(tc.leaks) == 0 && tc.entry != nil && slices.Contains(c.reaches(tc.entry), ld.fn.top) {
			tc.alarms = append(tc.alarms, ld)
		}
		for _, l := range tc.leaks {
			if l.kind&ld.kind == 0 {
				continue
			}
			if slices.ContainsFunc(l.funcs, func(fn *leakFunc) bool { return fn.top == ld.fn.top }) {
				l.direct = append(l.direct, ld)
				matched()
			} else if slices.ContainsFunc(l.funcs, func(fn *leakFunc) bool { return slices.Contains(c.reaches(fn), ld.fn.top) }) ||
				slices.ContainsFunc(l.funcs, func(fn *leakFunc) bool { return slices.Contains(subjects, fn) }) {
				l.callee = append(l.callee, ld)
				matched()
			}
		}
	}
}

// leakCounts are the figures of a group of cases.
type leakCounts struct {
	cases, flaky, noLeak, flagged          int
	leaks, found, foundCallee              int
	casesFound, casesPartly, casesWithCall int
	diags, outside                         int
}

func countLeaks(cases []*leakCase, diags []*leakDiag) leakCounts {
	var n leakCounts
	for _, tc := range cases {
		n.cases++
		if tc.flaky {
			n.flaky++
		}
		if len(tc.leaks) == 0 {
			n.noLeak++
			if len(tc.alarms) > 0 {
				n.flagged++
			}
			continue
		}
		direct, withCallee := 0, 0
		for _, l := range tc.leaks {
			n.leaks++
			if len(l.direct) > 0 {
				direct++
			}
			if len(l.direct)+len(l.callee) > 0 {
				withCallee++
			}
		}
		n.found += direct
		n.foundCallee += withCallee
		switch {
		case direct == len(tc.leaks):
			n.casesFound++
		case direct > 0:
			n.casesPartly++
		}
		if withCallee == len(tc.leaks) {
			n.casesWithCall++
		}
	}
	for _, d := range diags {
		n.diags++
		if !d.matched {
			n.outside++
		}
	}
	return n
}

func (n leakCounts) add(m leakCounts) leakCounts {
	return leakCounts{
		n.cases + m.cases, n.flaky + m.flaky, n.noLeak + m.noLeak, n.flagged + m.flagged,
		n.leaks + m.leaks, n.found + m.found, n.foundCallee + m.foundCallee,
		n.casesFound + m.casesFound, n.casesPartly + m.casesPartly, n.casesWithCall + m.casesWithCall,
		n.diags + m.diags, n.outside + m.outside,
	}
}

func printLeakCounts(name string, n leakCounts) {
	withLeaks := n.cases - n.noLeak
	fmt.Printf("%s: %d cases (%d flaky, %d expecting no leak), %d expected leaks\n", name, n.cases, n.flaky, n.noLeak, n.leaks)
	line := func(what string, x, y int) {
		fmt.Printf("  %-28s %3d/%-3d (%5.1f%%)\n", what, x, y, percent(x, y))
	}
	line("leaks found", n.found, n.leaks)
	line("leaks found with callees", n.foundCallee, n.leaks)
	line("cases found", n.casesFound, withLeaks)
	line("cases partly found", n.casesPartly, withLeaks)
	line("cases found with callees", n.casesWithCall, withLeaks)
	line("no-leak cases flagged", n.flagged, n.noLeak)
	fmt.Printf("  diagnostics: %d (outside any expectation %d)\n", n.diags, n.outside)
}

func printLeakReport(r *leakReport, goversion, analyzers string, verbose bool) {
	ncases := 0
	for _, g := range r.groups {
		ncases += len(g.cases)
	}
	fmt.Printf("leakcorpus: %d files, %d cases (%s), diagnostics of %s\n", r.files, ncases, goversion, analyzers)
	var total leakCounts
	for _, g := range r.groups {
		n := countLeaks(g.cases, g.diags)
		total = total.add(n)
		printLeakCounts(g.name, n)
	}
	printLeakCounts("total", total)
	for _, w := range r.warnings {
		fmt.Printf("warning: %s\n", w)
	}
	if !verbose {
		return
	}
	for _, g := range r.groups {
		fmt.Printf("\n%s cases:\n", g.name)
		for _, tc := range g.cases {
			printLeakCase(tc)
		}
		fmt.Printf("\n%s diagnostics outside any expectation:\n", g.name)
		for _, d := range g.diags {
			if !d.matched {
				fmt.Printf("  %s: %s [%s]: %s\n", d.where(), d.fnName(), d.kind, messageHead(d.Message))
			}
		}
	}
}

func printLeakCase(tc *leakCase) {
	flaky := ""
	if tc.flaky {
		flaky = " (flaky)"
	}
	entry := "?"
	if tc.entry != nil {
		entry = fmt.Sprintf("%s:%d", tc.entry.file, tc.entry.line)
	}
	if len(tc.leaks) == 0 {
		status := "no leak"
		if len(tc.alarms) > 0 {
			status = "FLAGGED"
		}
		fmt.Printf("  %-8s %s%s %s\n", status, tc.name, flaky, entry)
		for _, d := range tc.alarms {
			fmt.Printf("      %s: %s\n", d.where(), messageHead(d.Message))
		}
		return
	}
	direct, withCallee := 0, 0
	for _, l := range tc.leaks {
		if len(l.direct) > 0 {
			direct++
		}
		if len(l.direct)+len(l.callee) > 0 {
			withCallee++
		}
	}
	status := "missed"
	switch {
	case direct == len(tc.leaks):
		status = "found"
	case direct > 0:
		status = "partly"
	case withCallee > 0:
		status = "callee"
	}
	fmt.Printf("  %-8s %s%s %s: %d/%d leaks found, %d with callees\n", status, tc.name, flaky, entry, direct, len(tc.leaks), withCallee)
	for _, l := range tc.leaks {
		mark := " "
		switch {
		case len(l.direct) > 0:
			mark = "+"
		case len(l.callee) > 0:
			mark = "~"
		}
		var fns []string
		for _, fn := range l.funcs {
			fns = append(fns, fn.name)
		}
		fmt.Printf("    %s %s [%s] in %s\n", mark, l.pattern, l.kind, cmp.Or(strings.Join(fns, ", "), "no function"))
		for _, d := range l.direct {
			fmt.Printf("        %s: %s\n", d.where(), messageHead(d.Message))
		}
		for _, d := range l.callee {
			fmt.Printf("        callee %s: %s\n", d.where(), messageHead(d.Message))
		}
	}
}

// where is a diagnostic's position, relative to the corpus if in it.
func (d *leakDiag) where() string {
	if d.file == "" {
		return d.Posn
	}
	return fmt.Sprintf("%s:%d:%d", d.file, d.line, d.col)
}

func (d *leakDiag) fnName() string {
	if d.fn == nil {
		return "(no function)"
	}
	return d.fn.name
}
