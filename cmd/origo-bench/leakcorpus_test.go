package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/kinds"
)

// fakeLeakTest is goroutineleakprofile_test.go in miniature: case lists
// built by makeTest, makeFlakyTest and makeAnyTest, a list of another
// type, and an element that is not a call.
const fakeLeakTest = "package runtime_test\n" + `

import (
	"regexp"
	"testing"
)

func TestGoroutineLeakProfile(t *testing.T) {
	type testCase struct {
		name          string
		expectedLeaks map[*regexp.Regexp]bool
	}
	makeAnyTest := func(name string, flaky bool, repetitions int, leaks ...string) testCase { return testCase{name: name} }
	makeTest := func(name string, leaks ...string) testCase { return makeAnyTest(name, false, 2, leaks...) }
	makeFlakyTest := func(name string, leaks ...string) testCase { return makeAnyTest(name, true, 10, leaks...) }
	var extra testCase

	for _, cfg := range []string{"mayMoreStackPreempt"} {
		_ = cfg
	}

	microTests := []testCase{
		makeTest("ChanSend",
			` + "`ChanSend\\.func1\\(.* \\[chan send\\]`" + `,
		),
		makeTest("Mixed",
			` + "`Mixed\\.func1\\(.* \\[sync\\.WaitGroup\\.Wait\\]`" + `,
			"Mixed\\.func1.1\\(.* \\[chan send\\]",
		),
		makeTest("NoLeak"),
		extra,
	}
	gokerTestCases := []testCase{
		makeFlakyTest("Kernel1",
			` + "`\\(\\*T_kernel1\\)\\.Run\\(.* \\[sync\\.Mutex\\.Lock\\]`" + `,
		),
		makeAnyTest("Kernel2", true, 3, ` + "`Kernel2\\.func2\\(.* \\[chan receive\\]`" + `),
		// makeTest("Kernel3", ` + "`commented out`" + `),
	}
	_ = append(microTests, gokerTestCases...)
}
`

func TestParseLeakExpectations(t *testing.T) {
	exp, err := parseLeakExpectations("fake_test.go", fakeLeakTest)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range exp.cases {
		s := tc.list + ":" + tc.name
		if tc.flaky {
			s += "(flaky)"
		}
		for _, l := range tc.leaks {
			s += " " + l.pattern
		}
		got = append(got, s)
	}
	want := []string{
		`microTests:ChanSend ChanSend\.func1\(.* \[chan send\]`,
		`microTests:Mixed Mixed\.func1\(.* \[sync\.WaitGroup\.Wait\] Mixed\.func1.1\(.* \[chan send\]`,
		`microTests:NoLeak`,
		`gokerTestCases:Kernel1(flaky) \(\*T_kernel1\)\.Run\(.* \[sync\.Mutex\.Lock\]`,
		`gokerTestCases:Kernel2(flaky) Kernel2\.func2\(.* \[chan receive\]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cases:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(exp.skipped) != 1 || !strings.Contains(exp.skipped[0], "fake_test.go:") {
		t.Errorf("skipped = %q, want the element extra", exp.skipped)
	}

	bad := strings.Replace(fakeLeakTest, "`ChanSend\\.func1", "`ChanSend(\\.func1", 1)
	if _, err := parseLeakExpectations("bad_test.go", bad); err == nil || !strings.Contains(err.Error(), "ChanSend") {
		t.Errorf("a bad regular expression: err = %v, want one naming the case", err)
	}
	if _, err := parseLeakExpectations("none_test.go", "package p\n\nvar x = []int{1}\n"); err == nil {
		t.Error("a file without case lists parsed without error")
	}
}

// fakeLeakCorpus is a goroutine-leak corpus in miniature, with its goker
// directory, a file of another package and a file that is not Go.
var fakeLeakCorpus = map[string]string{
	"main.go": `package main

var cmds = map[string]func(){}

func register(name string, f func()) { cmds[name] = f }

func main() {}
`,
	"simple.go": `package main

import "sync"

func init() {
	register("ChanSend", ChanSend)
	register("Mixed", Mixed)
	register("NoLeak", NoLeak)
}

func ChanSend() {
	defer func() {}()
	go func() {
		make(chan int) <- 0
	}()
}

func Mixed() {
	go func() {
		ch := make(chan int)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			ch <- 0
			wg.Done()
		}()
		wg.Wait()
		<-ch
	}()
}

func NoLeak() {
	go func() {
		helper()
	}()
}

func helper() {
	var mu sync.Mutex
	mu.Lock()
	mu.Lock()
}

var glob = func() int { return 1 }()
`,
	"goker/main.go": `package main

var cmds = map[string]func(){}

func register(name string, f func()) { cmds[name] = f }

func main() {}
`,
	"goker/kernel1.go": `package main

import "sync"

func init() {
	register("Kernel1", Kernel1)
}

type T_kernel1 struct{ mu sync.Mutex }

func (t *T_kernel1) Run() {
	t.mu.Lock()
	t.lockAgain()
}

func (t *T_kernel1) lockAgain() {
	t.mu.Lock()
}

func Kernel1() {
	t := &T_kernel1{}
	go t.Run()
}
`,
	"goker/kernel2.go": `package main

func init() {
	register("Kernel2", Kernel2)
}

type G_kernel2[E any] struct{}

func (G_kernel2[E]) Run() {
	func() {}()
}

func Kernel2() {
	defer func() {}()
	go func() {
		<-make(chan int)
	}()
}
`,
	"other/other.go":  "package other\n",
	"goker/README.md": "not Go\n",
}

func writeFakeLeakCorpus(t *testing.T) string {
	dir := t.TempDir()
	for name, src := range fakeLeakCorpus {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fakeParsedLeakCorpus(t *testing.T) (dir string, c *leakCorpus) {
	dir = writeFakeLeakCorpus(t)
	files, err := selectLeakCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err = parseLeakCorpus(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	return dir, c
}

func TestSelectAndWriteLeakCorpus(t *testing.T) {
	dir := writeFakeLeakCorpus(t)
	files, err := selectLeakCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"goker/kernel1.go", "goker/kernel2.go", "goker/main.go", "main.go", "simple.go"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("selectLeakCorpus = %v, want %v (package other and README left out)", files, want)
	}
	mod := filepath.Join(t.TempDir(), "mod")
	if err := writeCorpusModule(mod, "leakcorpus", dir, files); err != nil {
		t.Fatal(err)
	}
	for _, rel := range append(files, "go.mod") {
		if _, err := os.Stat(filepath.Join(mod, filepath.FromSlash(rel))); err != nil {
			t.Errorf("scratch module: %v", err)
		}
	}
	if err := writeCorpusModule(mod, "leakcorpus", dir, files); err != nil { // a kept module is reused
		t.Errorf("rewriting the scratch module: %v", err)
	}
	if err := os.WriteFile(filepath.Join(mod, "goker", "stray.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeCorpusModule(mod, "leakcorpus", dir, files); err == nil || !strings.Contains(err.Error(), "stray.go") {
		t.Errorf("a kept module with a stray Go file: err = %v, want one naming it", err)
	}
}

func TestLeakFuncNames(t *testing.T) {
	_, c := fakeParsedLeakCorpus(t)
	var got []string
	for _, fn := range c.funcs {
		if fn.file == "simple.go" || strings.HasPrefix(fn.file, "goker/kernel") {
			got = append(got, fn.file+":"+fn.name+"<"+fn.top.name)
		}
	}
	want := []string{
		"goker/kernel1.go:init.0<init.0", // init functions are numbered per package, in file order
		"goker/kernel1.go:(*T_kernel1).Run<(*T_kernel1).Run",
		"goker/kernel1.go:(*T_kernel1).lockAgain<(*T_kernel1).lockAgain",
		"goker/kernel1.go:Kernel1<Kernel1",
		"goker/kernel2.go:init.1<init.1",
		"goker/kernel2.go:G_kernel2[...].Run<G_kernel2[...].Run",
		"goker/kernel2.go:G_kernel2[...].Run.func1<G_kernel2[...].Run",
		"goker/kernel2.go:Kernel2<Kernel2",
		"goker/kernel2.go:Kernel2.func1<Kernel2",
		"goker/kernel2.go:Kernel2.func2<Kernel2",
		"simple.go:init.0<init.0",
		"simple.go:ChanSend<ChanSend",
		"simple.go:ChanSend.func1<ChanSend",
		"simple.go:ChanSend.func2<ChanSend",
		"simple.go:Mixed<Mixed",
		"simple.go:Mixed.func1<Mixed",
		"simple.go:Mixed.func1.1<Mixed",
		"simple.go:NoLeak<NoLeak",
		"simple.go:NoLeak.func1<NoLeak",
		"simple.go:helper<helper",
		"simple.go:glob..func1<glob..func1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("functions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, tc := range []struct {
		rel       string
		line, col int
		want      string
	}{
		{"simple.go", 14, 3, "ChanSend.func2"}, // the send
		{"simple.go", 13, 2, "ChanSend"},       // the go keyword, before the literal
		{"simple.go", 24, 4, "Mixed.func1.1"},  // ch <- 0
		{"simple.go", 27, 3, "Mixed.func1"},    // wg.Wait()
		{"simple.go", 44, 25, "glob..func1"},   // in a package-level initializer
		{"simple.go", 3, 1, ""},                // the import
		{"goker/kernel1.go", 17, 2, "(*T_kernel1).lockAgain"},
	} {
		name := ""
		if fn := c.enclosing(tc.rel, tc.line, tc.col); fn != nil {
			name = fn.name
		}
		if name != tc.want {
			t.Errorf("enclosing(%s:%d:%d) = %q, want %q", tc.rel, tc.line, tc.col, name, tc.want)
		}
	}

	if got := c.corpusFile("/tmp/x/leakcorpus/goker/main.go"); got != "goker/main.go" {
		t.Errorf("corpusFile(.../goker/main.go) = %q, want goker/main.go", got)
	}
	if got := c.corpusFile("/tmp/x/leakcorpus/main.go"); got != "main.go" {
		t.Errorf("corpusFile(.../main.go) = %q, want main.go", got)
	}
	if got := c.corpusFile("/tmp/x/elsewhere.go"); got != "" {
		t.Errorf("corpusFile(elsewhere.go) = %q, want none", got)
	}
}

// keywordKind is how the score read a diagnostic's kinds before reports
// carried their kind: from keywords of the message's head (the text
// before the first ';'), a lock kind for a lock problem and the kind of
// the operation named first. TestCategoryKinds checks that the
// categories give the kinds the keywords gave.
func keywordKind(msg string) leakKind {
	lockKeywords := []string{"double lock", "rwmutex upgrade", "recursive read lock", "lock left held", "lock order", "lock kept", "lock blocks forever", "while holding"}
	opKeywords := []struct {
		keyword string
		kind    leakKind
	}{
		{"send", kindSend}, {"sends", kindSend}, {"receive", kindRecv}, {"receives", kindRecv},
		{"range over channel", kindRecv}, {"ranges over", kindRecv}, {"select", kindSelect}, {"selects", kindSelect},
		{"waitgroup.wait", kindWaitGroup}, {"waits for", kindWaitGroup}, {"cond.wait", kindCond}, {"waits on", kindCond},
	}
	wordIndex := func(s, word string) int {
		for i := 0; ; {
			j := strings.Index(s[i:], word)
			if j < 0 {
				return -1
			}
			start, end := i+j, i+j+len(word)
			isWord := func(b byte) bool {
				return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || b >= 0x80
			}
			if (start == 0 || !isWord(s[start-1])) && (end == len(s) || !isWord(s[end])) {
				return start
			}
			i = start + 1
		}
	}
	head := strings.ToLower(messageHead(msg))
	var k leakKind
	for _, kw := range lockKeywords {
		if wordIndex(head, kw) >= 0 {
			k |= kindLock
		}
	}
	if k != 0 && wordIndex(head, "while holding") < 0 {
		return k
	}
	first, op := len(head), leakKind(0)
	for _, kw := range opKeywords {
		if i := wordIndex(head, kw.keyword); i >= 0 && i < first {
			first, op = i, kw.kind
		}
	}
	return k | op
}

// TestCategoryKinds checks, on messages of each kind of report that the
// corpus meets, that a diagnostic's category gives the kinds its
// message's keywords gave (the operation of blocking while holding a
// lock, read from the source, is TestOpAt's), and that every kind of
// deadlock and blocking has its kinds.
func TestCategoryKinds(t *testing.T) {
	for _, tc := range []struct{ category, msg string }{
		{"deadlock/double-lock", "double lock: g.mu is held (locked at cockroach584.go:25) when this goroutine calls (*goker.gossip_cockroach584).manage, which locks it again (at cockroach584.go:36)"},
		{"deadlock/double-lock", "double lock: s.selectMu is locked at a.go:3 while already held"},
		{"deadlock/rwmutex-upgrade", "RWMutex upgrade: mu is locked at a.go:3 while this goroutine holds its read lock (taken at a.go:2); Lock waits for every reader, itself included"},
		{"deadlock/recursive-read-lock", "recursive read lock: mu is read-locked (at a.go:2) when this goroutine calls (*p.T).Send, which read-locks it again"},
		{"deadlock/lock-left-held", "lock left held: mu (locked at a.go:2) is still locked when f returns here, while its other returns unlock it"},
		{"deadlock/lock-after-left-held", "Lock blocks forever (deadlock): c.mu is left locked by f (lock left held at a.go:9), called at a.go:3 before this Lock, on the paths that return so"},
		{"deadlock/lock-kept-by-returned-goroutine", "lock kept by a returned goroutine: this Lock of mu blocks forever once the goroutine started at a.go:3 has returned"},
		{"deadlock/lock-order-inversion", "lock order inversion: a is locked at a.go:3 while holding b (goroutine started at a.go:9), and the same two mutexes are taken in the opposite order at a.go:12 (goroutine started at a.go:10); the two goroutines can deadlock"},
		{"deadlock/lock-order-cycle", "lock order cycle: a is locked at a.go:3 while holding b (goroutine started at a.go:9); the three goroutines can deadlock"},
		{"deadlock/unlock-of-unlocked-mutex", "unlock of unlocked mutex: mu is unlocked at a.go:3, and every path here already unlocked it"},
		{"blocking/send", "send blocks forever: goroutine started at a.go:3 sends on ch (made at a.go:2, unbuffered), which no other goroutine receives from"},
		{"blocking/send", "send on nil channel blocks forever: goroutine started at a.go:3 never proceeds (a nil channel is never ready)"},
		{"blocking/send", "send blocks forever when f returns early: the goroutine started at a.go:3 sends on ch, and f may return at a.go:5 without receiving it"},
		{"blocking/receive", "receive blocks forever: goroutine started at a.go:3 receives from c, but every goroutine that sends on or closes it may block forever"},
		{"blocking/receive", "receive from nil channel blocks forever: main goroutine never proceeds (a nil channel is never ready)"},
		{"blocking/receive", "receive from ctx.Done() blocks forever: the context comes from context.WithCancel at a.go:3 over a context that is never done"},
		{"blocking/range", "range over channel blocks forever: goroutine started at a.go:3 ranges over c (made at a.go:2), which nothing closes"},
		{"blocking/select", "select blocks forever: goroutine started at a.go:3 selects on cases none of which can proceed"},
		{"blocking/select", "select {} blocks forever: f never returns; only func main may wait so"},
		{"blocking/waitgroup-wait", "WaitGroup.Wait blocks forever: goroutine started at a.go:3 waits for wg, whose counter Add raises, but nothing calls Done on it"},
		{"blocking/waitgroup-wait", "WaitGroup.Wait blocks forever: the goroutine started at a.go:3 calls Done on wg only after it sends on ch (made at a.go:2, unbuffered) at a.go:4"},
		{"blocking/cond-wait", "Cond.Wait blocks forever: main goroutine waits on c, which nothing signals (no Signal or Broadcast on it)"},
		{"blocking/lock", "Lock blocks forever: goroutine started at a.go:3 locks p.mu, which goroutine started at a.go:4 holds while it may block forever at a.go:9 (reported there; locked at a.go:8)"},
		{"race/data-race", "data race on x: write at a.go:3 (goroutine started at a.go:2) vs read at a.go:5 (main goroutine); locks held: {} vs {}"},
	} {
		if got, want := categoryKinds[tc.category], keywordKind(tc.msg); got != want {
			t.Errorf("%s: kinds %s, the message's keywords give %s: %s", tc.category, got, want, tc.msg)
		}
	}
	for _, k := range append(kinds.Of("deadlock"), kinds.Of("blocking")...) {
		if _, ok := categoryKinds[k.ID]; !ok && k != kinds.UnlockOfUnlocked {
			t.Errorf("kind %s has no leak kinds", k.ID)
		}
	}
}

// fakeLeakExpectations matches fakeLeakCorpus: leaks found directly,
// through a callee, of the wrong kind, missed, and a case without leak.
const fakeLeakExpectations = "package runtime_test\n" + `

func TestGoroutineLeakProfile(t *testing.T) {
	microTests := []testCase{
		makeTest("ChanSend", ` + "`ChanSend\\.func2\\(.* \\[chan send\\]`" + `),
		makeTest("Mixed",
			` + "`Mixed\\.func1\\(.* \\[sync\\.WaitGroup\\.Wait\\]`" + `,
			` + "`Mixed\\.func1.1\\(.* \\[chan send\\]`" + `,
		),
		makeTest("NoLeak"),
		makeTest("Unregistered", ` + "`nowhere\\(.* \\[select\\]`" + `),
	}
	gokerTestCases := []testCase{
		makeFlakyTest("Kernel1", ` + "`\\(\\*T_kernel1\\)\\.Run\\(.* \\[sync\\.Mutex\\.Lock\\]`" + `),
		makeTest("Kernel2", ` + "`Kernel2\\.func2\\(.* \\[chan receive\\]`" + `),
	}
}
`

func TestSubjectOf(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		file string
		line int
	}{
		{"receive blocks forever: goroutine started at a.go:12 receives from ch", "a.go", 12},
		{"send blocks forever when f returns early: the goroutine started at b.go:3 sends on ch", "b.go", 3},
		{"blocking while holding a lock: goroutine started at c.go:8, in a loop sends on ch", "c.go", 8},
		{"the other side of the deadlock: goroutine started at d.go:12, in a loop locks w.mu here while holding c.mu, which this goroutine takes in the opposite order", "d.go", 12},
		// The other side of blocking while holding names the goroutine
		// that waits for the report's, not the one at this Lock.
		{"the other side of the deadlock: the close that would end that wait locks r.mu here first (goroutine started at e.go:1)", "", 0},
		{"double lock: mu is locked at a.go:3 while already held", "", 0},
	} {
		file, line, _ := subjectOf(tc.msg)
		if file != tc.file || line != tc.line {
			t.Errorf("subjectOf(%q) = %s:%d, want %s:%d", tc.msg, file, line, tc.file, tc.line)
		}
	}
}

// fakeLeakScoring returns the fake corpus parsed, its expectations,
// at (the position of line:col of a file of the corpus, by its path
// relative to it) and a lock order inversion outside any case, whose
// other side is in Kernel1's (*T_kernel1).Run.
func fakeLeakScoring(t *testing.T) (c *leakCorpus, exp *leakExpectations, at func(rel string, line, col int) string, inversion diag) {
	t.Helper()
	dir, c := fakeParsedLeakCorpus(t)
	exp, err := parseLeakExpectations("fake_test.go", fakeLeakExpectations)
	if err != nil {
		t.Fatal(err)
	}
	at = func(rel string, line, col int) string {
		return filepath.Join(dir, filepath.FromSlash(rel)) + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
	}
	inversion = diag{Posn: at("goker/main.go", 5, 40), Category: "deadlock/lock-order-inversion", Message: "lock order inversion: in no case"}
	inversion.Related = append(inversion.Related, struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}{at("goker/kernel1.go", 12, 2), "the other side of the deadlock: goroutine started at kernel1.go:22 locks t.mu here while holding t.mu"})
	return c, exp, at, inversion
}

func TestScoreLeaks(t *testing.T) {
	c, exp, at, inversion := fakeLeakScoring(t)
	d := func(posn, category, msg string) diag { return diag{Posn: posn, Category: category, Message: msg} }
	diags := []diag{
		d(at("simple.go", 14, 3), "blocking/send", "send blocks forever: goroutine started at simple.go:13 sends on a channel that no goroutine receives from"), // ChanSend: found
		d(at("simple.go", 14, 3), "blocking/send", "send blocks forever: goroutine started at simple.go:13 sends on a channel that no goroutine receives from"), // repeated: once
		d(at("simple.go", 24, 4), "deadlock/double-lock", "double lock: mu is locked at a.go:3 while already held"),                                             // Mixed.func1.1, wrong kind
		// Mixed.func1.1: found, the operation read at the report's position.
		d(at("simple.go", 24, 7), "deadlock/blocking-while-holding-lock", "blocking while holding a lock: a goroutine sends on ch"),
		d(at("simple.go", 27, 3), "blocking/waitgroup-wait", "WaitGroup.Wait blocks forever: the Done is never reached"),          // Mixed.func1: found
		d(at("simple.go", 41, 2), "deadlock/double-lock", "double lock: mu is locked at simple.go:41 while already held"),         // helper: NoLeak's false alarm
		d(at("goker/kernel1.go", 17, 2), "deadlock/double-lock", "double lock: t.mu is held when this goroutine calls lockAgain"), // Kernel1 through a callee
		d(at("goker/kernel2.go", 10, 2), "deadlock/double-lock", "double lock: in another function"),                              // outside
		// Not in code Kernel2.func2 reaches, but the goroutine it names is
		// the one the go statement at line 15 starts with Kernel2.func2.
		d(at("goker/kernel2.go", 10, 3), "blocking/receive", "receive blocks forever: goroutine started at kernel2.go:15 receives from ch"),
		inversion, // found, at its other side
		d("/elsewhere/x.go:1:1", "deadlock/double-lock", "double lock: not in the corpus"), // outside
		d(at("simple.go", 14, 3), "race/data-race", "data race on x"),                      // no kind: outside
	}
	r := scoreLeaks(c, exp.cases, diags)
	if want := []string{"case Unregistered: no function registered under its name", "case Unregistered: leak nowhere\\(.* \\[select\\] names no function of the corpus"}; !reflect.DeepEqual(r.warnings, want) {
		t.Errorf("warnings = %q, want %q", r.warnings, want)
	}
	var got []string
	for _, g := range r.groups {
		for _, tc := range g.cases {
			s := g.name + ":" + tc.name
			for _, l := range tc.leaks {
				var fns []string
				for _, fn := range l.funcs {
					fns = append(fns, fn.name)
				}
				s += " " + strings.Join(fns, ",") + "[" + l.kind.String() + "]=" + strconv.Itoa(len(l.direct)) + "/" + strconv.Itoa(len(l.callee))
			}
			if len(tc.alarms) > 0 {
				s += " alarms=" + strconv.Itoa(len(tc.alarms))
			}
			got = append(got, s)
		}
	}
	want := []string{
		"goker:Kernel1 (*T_kernel1).Run[lock]=1/1",
		"goker:Kernel2 Kernel2.func2[receive]=0/1",
		"patterns:ChanSend ChanSend.func2[send]=1/0",
		"patterns:Mixed Mixed.func1[waitgroup]=1/0 Mixed.func1.1[send]=1/0",
		"patterns:NoLeak alarms=1",
		"patterns:Unregistered [none]=0/0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cases:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	goker := countLeaks(r.groups[0].cases, r.groups[0].diags)
	if want := (leakCounts{cases: 2, flaky: 1, leaks: 2, found: 1, foundCallee: 2, casesFound: 1, casesWithCall: 2, diags: 4, outside: 1}); goker != want {
		t.Errorf("goker counts = %+v, want %+v", goker, want)
	}
	patterns := countLeaks(r.groups[1].cases, r.groups[1].diags)
	want2 := leakCounts{cases: 4, noLeak: 1, flagged: 1, leaks: 4, found: 3, foundCallee: 3, casesFound: 2, casesWithCall: 2, diags: 7, outside: 4}
	if patterns != want2 {
		t.Errorf("patterns counts = %+v, want %+v", patterns, want2)
	}
	var outside []string
	for _, g := range r.groups {
		for _, d := range g.diags {
			if !d.matched {
				outside = append(outside, d.where())
			}
		}
	}
	wantOutside := []string{"goker/kernel2.go:10:2", "/elsewhere/x.go:1:1", "simple.go:14:3", "simple.go:24:4", "simple.go:41:2"}
	if !reflect.DeepEqual(outside, wantOutside) {
		t.Errorf("outside any expectation = %q, want %q", outside, wantOutside)
	}
}

// TestRealLeakExpectations parses the goroutine-leak corpus and its test
// of the Go installation that runs the test, and requires plausible
// counts and every expected leak to name a function of the corpus (the
// closure naming agrees with the runtime's).
func TestRealLeakExpectations(t *testing.T) {
	goroot, _, err := goEnv()
	if err != nil {
		t.Skip(err)
	}
	testFile := filepath.Join(goroot, filepath.FromSlash(leakTestPath))
	corpusDir := filepath.Join(goroot, filepath.FromSlash(leakCorpusPath))
	if _, err := os.Stat(testFile); err != nil {
		t.Skipf("no goroutine-leak test in this Go installation: %v", err)
	}
	exp, err := parseLeakExpectations(testFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(exp.skipped) > 0 {
		t.Errorf("skipped: %q", exp.skipped)
	}
	byList := make(map[string]int)
	leaks, flaky := 0, 0
	for _, tc := range exp.cases {
		byList[tc.list]++
		leaks += len(tc.leaks)
		if tc.flaky {
			flaky++
		}
	}
	if byList["gokerTestCases"] <= 50 || len(exp.cases)-byList["gokerTestCases"] < 15 || leaks < 100 || flaky < 20 {
		t.Errorf("cases by list %v, %d expected leaks, %d flaky cases: want more than 50 goker cases, 15 others, 100 leaks, 20 flaky", byList, leaks, flaky)
	}
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("no goroutine-leak corpus: %v", err)
	}
	files, err := selectLeakCorpus(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseLeakCorpus(corpusDir, files)
	if err != nil {
		t.Fatal(err)
	}
	r := scoreLeaks(c, exp.cases, nil)
	for _, w := range r.warnings {
		t.Errorf("warning: %s", w)
	}
	if n := len(r.groups[0].cases); n != byList["gokerTestCases"] {
		t.Errorf("%d cases registered in goker/, want the %d of gokerTestCases", n, byList["gokerTestCases"])
	}
}

// TestOpAt checks the operation read at a report's position: a send's
// arrow, a receive's <-, a Wait call's parenthesis, and nothing elsewhere.
func TestOpAt(t *testing.T) {
	_, c := fakeParsedLeakCorpus(t)
	for _, tc := range []struct {
		file      string
		line, col int
		want      leakKind
	}{
		{"simple.go", 14, 18, kindSend},
		{"simple.go", 24, 7, kindSend},
		{"simple.go", 27, 10, kindWaitGroup | kindCond},
		{"simple.go", 28, 3, kindRecv},
		{"simple.go", 28, 4, 0},
		{"simple.go", 41, 2, 0},
		{"goker/kernel2.go", 16, 3, kindRecv},
	} {
		if got := opAt(c, c.enclosing(tc.file, tc.line, tc.col), tc.line, tc.col); got != tc.want {
			t.Errorf("opAt(%s:%d:%d) = %s, want %s", tc.file, tc.line, tc.col, got, tc.want)
		}
	}
}
