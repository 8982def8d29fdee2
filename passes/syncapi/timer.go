package syncapi

import (
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ssa"
)

// TimerOp is an operation on a time.Timer or time.Ticker.
type TimerOp uint8

// The operations on timers that decide when one fires.
const (
	NotTimer   TimerOp = iota
	TimerNew           // time.NewTimer, time.NewTicker, time.AfterFunc: makes and arms one
	TimerReset         // Timer.Reset, Ticker.Reset: arms it again
	TimerStop          // Timer.Stop, Ticker.Stop
)

// LongTimer is the least constant duration a timer is armed for that is
// taken not to elapse before a Stop that follows it at once.
const LongTimer = time.Second

// Timer recognizes a call that makes, resets or stops a time.Timer or
// time.Ticker, and returns the operation, the timer (the call's result
// for TimerNew) and the duration it is armed with (nil for TimerStop).
// A timer fires after the call that armed it: its channel C delivers
// (see TimerChan), or the function of AfterFunc starts.
func Timer(c ssa.CallInstruction) (op TimerOp, timer, d ssa.Value) {
	call := c.Common()
	fn := call.StaticCallee()
	if fn == nil {
		return NotTimer, nil, nil
	}
	switch qualifiedName(fn) {
	case "time.NewTimer", "time.NewTicker", "time.AfterFunc":
		if v, ok := c.(*ssa.Call); ok && len(call.Args) > 0 {
			return TimerNew, v, call.Args[0]
		}
	case "time.Timer.Reset", "time.Ticker.Reset":
		if len(call.Args) == 2 {
			return TimerReset, call.Args[0], call.Args[1]
		}
	case "time.Timer.Stop", "time.Ticker.Stop":
		if len(call.Args) == 1 {
			return TimerStop, call.Args[0], nil
		}
	}
	return NotTimer, nil, nil
}

// TimerChan recognizes ch, a channel received from, as the field C of a
// time.Timer or time.Ticker (<-t.C), and returns the timer.
func TimerChan(ch ssa.Value) (ssa.Value, bool) {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || !(isNamed(fa.X.Type(), "time", "Timer") || isNamed(fa.X.Type(), "time", "Ticker")) {
		return nil, false
	}
	st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() || st.Field(fa.Field).Name() != "C" {
		return nil, false
	}
	return fa.X, true
}
