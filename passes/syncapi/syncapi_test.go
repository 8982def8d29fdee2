package syncapi_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// errgroupSrc stands in for golang.org/x/sync/errgroup, which the
// standard importer cannot load.
const errgroupSrc = `package errgroup

type Group struct{}

func (g *Group) Go(f func() error)         {}
func (g *Group) TryGo(f func() error) bool { return true }
func (g *Group) Wait() error               { return nil }
`

const src = `package p

import (
	"context"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

func f(mu *sync.Mutex, rw *sync.RWMutex, l sync.Locker, n *int32, i *atomic.Int64, once *sync.Once,
	wg *sync.WaitGroup, g *errgroup.Group, c *sync.Cond, ch chan int, t *testing.T,
	r io.Reader, file *os.File, w io.Writer, buf []byte, other interface{ Read(n int) (int, error) }) {
	mu.Lock()
	mu.Unlock()
	if mu.TryLock() {
	}
	rw.RLock()
	rw.RUnlock()
	if rw.TryRLock() {
	}
	l.Lock()
	atomic.LoadInt32(n)
	atomic.CompareAndSwapInt32(n, 0, 1)
	atomic.AddInt32(n, 1)
	atomic.SwapInt32(n, 2)
	i.Load()
	i.Add(1)
	i.Store(1)
	once.Do(func() {})
	wg.Add(1)
	wg.Done()
	wg.Wait()
	wg.Go(func() {})
	g.Go(func() error { return nil })
	g.TryGo(func() error { return nil })
	g.Wait()
	_ = sync.NewCond(l)
	c.Wait()
	c.Signal()
	c.Broadcast()
	close(ch)
	_ = len(ch)
	time.AfterFunc(0, func() {})
	tm := time.NewTimer(time.Hour)
	tm.Reset(1)
	tm.Stop()
	<-tm.C
	tk := time.NewTicker(time.Hour)
	tk.Reset(1)
	tk.Stop()
	<-tk.C
	context.AfterFunc(context.Background(), func() {})
	http.HandleFunc("/", nil)
	t.Run("", func(t *testing.T) { t.Parallel() })
	t.Errorf("x")
	_ = t.Name()
	var tb testing.TB = t
	tb.Log(1)
	r.Read(buf)
	file.ReadAt(buf, 0)
	io.ReadFull(r, buf)
	w.Write(buf)
	file.Write(buf)
	other.Read(1)
}
`

// describe says what syncapi recognizes in call.
func describe(call *ssa.CallCommon) string {
	var out []string
	if op, mu := syncapi.MutexOp(call); op != syncapi.NoLockOp {
		out = append(out, fmt.Sprintf("lock %d %s", op, mu.Name()))
	}
	if fn := call.StaticCallee(); fn != nil {
		if op := syncapi.Atomic(fn); op != syncapi.NotAtomic {
			d := fmt.Sprintf("atomic %d write=%v", op, op.Writes())
			if v := syncapi.AtomicOperand(op, call); v != nil {
				d += " operand " + v.Name()
			}
			out = append(out, d)
		}
		if sp, ok := syncapi.Spawn(fn); ok {
			out = append(out, fmt.Sprintf("spawn %s arg %d group=%v", sp.Kind, sp.Arg, sp.Group))
		}
		if syncapi.TParallel(fn) {
			out = append(out, "parallel")
		}
	}
	if once, _, ok := syncapi.OnceDo(call); ok {
		out = append(out, "once "+once.Name())
	}
	if op, wg := syncapi.WaitGroup(call); op != syncapi.NotWaitGroup {
		out = append(out, fmt.Sprintf("waitgroup %d %s", op, wg.Name()))
	}
	if g, ok := syncapi.ErrgroupWait(call); ok {
		out = append(out, "errgroup wait "+g.Name())
	}
	if op, c := syncapi.Cond(call); op != syncapi.NotCond {
		out = append(out, fmt.Sprintf("cond %d %s", op, c.Name()))
	}
	if l, ok := syncapi.NewCond(call); ok {
		out = append(out, "newcond "+l.Type().String())
	}
	if m := syncapi.TestReport(call); m != "" {
		out = append(out, "test report "+m)
	}
	if ch, ok := syncapi.Close(call); ok {
		out = append(out, "close "+ch.Name())
	}
	if p, write, ok := syncapi.IOBuffer(call); ok {
		out = append(out, fmt.Sprintf("io %s write=%v", p.Name(), write))
	}
	return strings.Join(out, "; ")
}

func TestRecognize(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	std := importer.Default()
	eg, err := (&types.Config{Importer: std}).Check("golang.org/x/sync/errgroup", fset, []*ast.File{parse("errgroup.go", errgroupSrc)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == eg.Path() {
			return eg, nil
		}
		return std.Import(path)
	})
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: imp}, fset,
		types.NewPackage("p", "p"), []*ast.File{parse("p.go", src)}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(src, "\n")
	var got []string
	f := pkg.Func("f")
	for _, fn := range append([]*ssa.Function{f}, f.AnonFuncs...) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if recv, ok := instr.(*ssa.UnOp); ok && recv.Op == token.ARROW {
					if tm, ok := syncapi.TimerChan(recv.X); ok {
						line := strings.TrimSpace(lines[fset.Position(recv.Pos()).Line-1])
						got = append(got, line+" => timer chan "+tm.Name())
					}
				}
				if call, ok := instr.(ssa.CallInstruction); ok {
					d := describe(call.Common())
					if op, tm, dur := syncapi.Timer(call); op != syncapi.NotTimer {
						d = strings.TrimPrefix(d+fmt.Sprintf("; timer %d %s", op, tm.Name()), "; ")
						if dur != nil {
							d += " " + dur.Name()
						}
					}
					if d != "" {
						line := strings.TrimSpace(lines[fset.Position(call.Pos()).Line-1])
						got = append(got, line+" => "+d)
					}
				}
			}
		}
	}
	want := []string{
		"mu.Lock() => lock 1 mu",
		"mu.Unlock() => lock 3 mu",
		"if mu.TryLock() { => lock 5 mu",
		"rw.RLock() => lock 2 rw",
		"rw.RUnlock() => lock 4 rw",
		"if rw.TryRLock() { => lock 6 rw",
		"l.Lock() => lock 1 l",
		"atomic.LoadInt32(n) => atomic 1 write=false",
		"atomic.CompareAndSwapInt32(n, 0, 1) => atomic 2 write=true operand 0:int32",
		"atomic.AddInt32(n, 1) => atomic 4 write=true operand 1:int32",
		"atomic.SwapInt32(n, 2) => atomic 5 write=true operand 2:int32",
		"i.Load() => atomic 1 write=false",
		"i.Add(1) => atomic 4 write=true operand 1:int64",
		"i.Store(1) => atomic 3 write=true operand 1:int64",
		"once.Do(func() {}) => once once",
		"wg.Add(1) => waitgroup 1 wg",
		"wg.Done() => waitgroup 2 wg",
		"wg.Wait() => waitgroup 3 wg",
		"wg.Go(func() {}) => spawn wg.Go arg 1 group=true",
		"g.Go(func() error { return nil }) => spawn errgroup.Go arg 1 group=true",
		"g.TryGo(func() error { return nil }) => spawn errgroup.Go arg 1 group=true",
		"g.Wait() => errgroup wait g",
		"_ = sync.NewCond(l) => newcond sync.Locker",
		"c.Wait() => cond 1 c",
		"c.Signal() => cond 2 c",
		"c.Broadcast() => cond 3 c",
		"close(ch) => close ch",
		"time.AfterFunc(0, func() {}) => spawn time.AfterFunc arg 1 group=false; timer 1 t28 0:time.Duration",
		"tm := time.NewTimer(time.Hour) => timer 1 t29 3600000000000:time.Duration",
		"tm.Reset(1) => timer 2 t29 1:time.Duration",
		"tm.Stop() => timer 3 t29",
		"<-tm.C => timer chan t29",
		"tk := time.NewTicker(time.Hour) => timer 1 t35 3600000000000:time.Duration",
		"tk.Reset(1) => timer 2 t35 1:time.Duration",
		"tk.Stop() => timer 3 t35",
		"<-tk.C => timer chan t35",
		"context.AfterFunc(context.Background(), func() {}) => spawn context.AfterFunc arg 1 group=false",
		"http.HandleFunc(\"/\", nil) => spawn http.Handler arg 1 group=false",
		"t.Run(\"\", func(t *testing.T) { t.Parallel() }) => spawn t.Run arg 2 group=false",
		"t.Errorf(\"x\") => test report Errorf",
		"tb.Log(1) => test report Log",
		"r.Read(buf) => io buf write=true",
		"file.ReadAt(buf, 0) => io buf write=true",
		"io.ReadFull(r, buf) => io buf write=true",
		"w.Write(buf) => io buf write=false",
		"file.Write(buf) => io buf write=false",
		"t.Run(\"\", func(t *testing.T) { t.Parallel() }) => parallel",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
