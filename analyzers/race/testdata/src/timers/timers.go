// Command timers checks the one assumption origo makes about time: a
// timer armed for a second or more and then stopped had not fired, and
// fires only after the Reset that follows the Stop; what came before
// that Reset happens before the firing.
package main

import "time"

func main() {
	timerReset()
	tickerReset()
	afterFuncReset()
	timerNoStop()
	timerShort()
	afterReset()
	afterFuncNoStop()
	resetInCopies()
	dormant()
	dormantField()
	dormantResetByMaker()
}

func timerReset() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.NewTimer(time.Hour)
	go func() {
		<-t.C
		v = 1
		done <- true
	}()
	t.Stop()
	v = 2 // silent "happens-before"
	t.Reset(time.Millisecond)
	<-done
}

func tickerReset() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.NewTicker(time.Hour)
	go func() {
		<-t.C
		v = 1
		done <- true
	}()
	t.Stop()
	v = 2 // silent "happens-before"
	t.Reset(time.Millisecond)
	<-done
}

func afterFuncReset() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.AfterFunc(time.Hour, func() {
		v = 1
		done <- true
	})
	t.Stop()
	v = 2 // silent "happens-before"
	t.Reset(time.Millisecond)
	<-done
}

// Not stopped: the hour may have passed.
func timerNoStop() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.NewTimer(time.Hour)
	go func() {
		<-t.C
		v = 1 // want `data race on v`
		done <- true
	}()
	v = 2
	t.Reset(time.Millisecond)
	<-done
}

// A millisecond may pass before the Stop.
func timerShort() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.NewTimer(time.Millisecond)
	go func() {
		<-t.C
		v = 1 // want `data race on v`
		done <- true
	}()
	t.Stop()
	v = 2
	t.Reset(time.Millisecond)
	<-done
}

// What comes after the Reset is not ordered.
func afterReset() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.NewTimer(time.Hour)
	go func() {
		<-t.C
		v = 1 // want `data race on v`
		done <- true
	}()
	t.Stop()
	t.Reset(time.Millisecond)
	v = 2
	<-done
}

func afterFuncNoStop() {
	v := 0
	_ = v
	done := make(chan bool)
	t := time.AfterFunc(time.Hour, func() {
		v = 1 // want `data race on v`
		done <- true
	})
	v = 2
	t.Reset(time.Millisecond)
	<-done
}

// Two copies of the goroutine reset the timer: it may fire for the other
// copy's Reset.
func resetInCopies() {
	v := 0
	_ = v
	t := time.NewTimer(time.Hour)
	go func() {
		<-t.C
		v = 1 // want `data race on v`
	}()
	for range 2 {
		go func() {
			t.Stop()
			v = 2 // want `data race on v`
			t.Reset(time.Millisecond)
		}()
	}
}

// A dormant timer: AfterFunc armed for a long constant and stopped at
// once runs its function only after a Reset, so the closure publishes
// nothing while the maker sets the object up; conns are reset only by
// those the maker hands them to. Silent, with the timer in a local and
// in the object's field (pgx's slow-write timer).
type conn struct {
	timer   *time.Timer
	started chan struct{}
	name    string
}

func newConn() *conn {
	c := &conn{}
	t := time.AfterFunc(time.Hour, func() {
		c.started <- struct{}{}
		println(c.name)
	})
	t.Stop()
	c.timer = t
	c.started = make(chan struct{}) // silent "not-published"
	c.name = "conn"                 // silent "not-published"
	return c
}

func newFieldConn() *conn {
	c := &conn{}
	c.timer = time.AfterFunc(time.Hour, func() {
		c.started <- struct{}{}
		println(c.name)
	})
	c.timer.Stop()
	c.started = make(chan struct{})
	c.name = "field" // silent "not-published"
	return c
}

func (c *conn) slow() {
	c.timer.Reset(time.Millisecond)
	<-c.started
}

func dormant() {
	c := newConn()
	go c.slow()
}

func dormantField() {
	c := newFieldConn()
	go c.slow()
}

// The maker resets the timer itself before it is done with the object:
// the function may run while it still writes. Reported.
func newResetConn() *conn {
	c := &conn{started: make(chan struct{}, 1)}
	c.timer = time.AfterFunc(time.Hour, func() {
		c.started <- struct{}{}
		println(c.name)
	})
	c.timer.Stop()
	c.timer.Reset(0)
	c.name = "reset" // want `data race on conn.name`
	return c
}

func dormantResetByMaker() {
	newResetConn()
}
