package shb

import (
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A timer fires after the call that armed it. Which arming a firing
// answers is a matter of time, which a static analysis does not see, so
// origo makes one assumption, the one the code shows it makes: a timer
// armed for a second or more and then stopped (t.Stop(); ...;
// t.Reset(d)) had not fired yet, and fires only for the Resets that
// follow. The Go memory model says nothing of timers; the runtime (and
// the race detector's model of it) orders a firing after every arming
// that came before it.

// longTimer is the least constant duration a timer is armed for that is
// taken not to elapse before a Stop that follows.
const longTimer = syncapi.LongTimer

// timer adds the event of a call that makes, resets or stops a timer,
// and reports whether it was one.
func (w *walker) timer(c ssa.CallInstruction, held LocksetID, loop int32) bool {
	op, tm, d := syncapi.Timer(c)
	if op == syncapi.NotTimer {
		return false
	}
	ev := Event{Kind: timerKinds[op], Instr: c, Obj: w.objs.of(w.o, tm)}
	if n, ok := loops.IntConst(d); ok && op == syncapi.TimerNew {
		ev.Long = n >= int64(longTimer)
	}
	w.add(ev, held, loop)
	return true
}

var timerKinds = map[syncapi.TimerOp]Kind{syncapi.TimerNew: TimerNew, syncapi.TimerReset: TimerReset, syncapi.TimerStop: TimerStop}

// timerFire adds, after a receive from ch, the firing of the timer
// whose channel C it is.
func (w *walker) timerFire(instr ssa.Instruction, ch ssa.Value, held LocksetID, loop int32) {
	if tm, ok := syncapi.TimerChan(ch); ok {
		w.add(Event{Kind: TimerFire, Instr: instr, Obj: w.objs.of(w.o, tm)}, held, loop)
	}
}

// timerEdges adds the edges from the Resets of a stopped timer to its
// firings: a receive from its channel, the start of the function that
// AfterFunc runs. It needs every arming that made the timer long (see
// longTimer), every Reset in one goroutine (not started in a loop), and
// a Stop there before the first: then what that goroutine did before the
// first Reset happens before every firing.
func (l *linker) timerEdges() {
	for _, ot := range l.traces {
		o := l.byObj[ot.obj][ot.t]
		resets, stops := o[TimerReset], o[TimerStop]
		if len(resets) == 0 || len(stops) == 0 || stops[0] > resets[0] || ot.t.Origin.Multi || !l.onlyResetter(ot) {
			continue
		}
		before := earliest(ot.t, resets[:1])
		for _, x := range l.traces {
			if x.obj != ot.obj || x.t == ot.t {
				continue
			}
			for _, id := range l.byObj[x.obj][x.t][TimerFire] {
				l.edge(ot.t, before, x.t, id)
			}
		}
		for _, child := range l.afterFuncs(ot.obj) {
			if child != ot.t {
				l.edge(ot.t, before, child, 0)
			}
		}
	}
}

// onlyResetter reports whether the trace of ot resets the timer ot.obj
// and no other does, and every arming that made it was long.
func (l *linker) onlyResetter(ot objTrace) bool {
	for t, o := range l.byObj[ot.obj] {
		if t != ot.t && len(o[TimerReset]) > 0 {
			return false
		}
		for _, id := range o[TimerNew] {
			if !t.Events[id].Long {
				return false
			}
		}
	}
	return true
}

// afterFuncs returns the traces of the functions that time.AfterFunc
// runs when the timer obj, which it made, fires.
func (l *linker) afterFuncs(obj int32) []*Trace {
	var out []*Trace
	for _, x := range l.traces {
		if x.obj != obj {
			continue
		}
		for _, id := range l.byObj[obj][x.t][TimerNew] {
			for _, sp := range x.t.at[x.t.Events[id].Instr] {
				if ev := &x.t.Events[sp]; ev.Kind == Spawn {
					for _, o := range x.t.Spawned(sp) {
						if c := l.res.byOrig[o]; c != nil {
							out = append(out, c)
						}
					}
				}
			}
		}
	}
	return out
}
