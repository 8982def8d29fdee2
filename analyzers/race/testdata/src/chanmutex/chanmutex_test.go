package chanmutex

import "testing"

// Pipe has two channel mutexes that one helper makes: what its reader
// does holding one is not guarded against what its writer does holding
// the other. TestPipe makes one in its goroutine, where the two
// channels are objects of one make reached from two call sites, not
// clones of a table's mutexes (see shb.Locksets.clones).
type Pipe struct {
	readMu, writeMu *mutex
	read, written   int
	total           int
}

// NewPipe makes a pipe.
func NewPipe() *Pipe { return &Pipe{readMu: newMutex(), writeMu: newMutex()} }

// Read counts a read holding the read lock.
func (p *Pipe) Read() {
	p.readMu.Lock()
	p.read++  // silent "common-lock"
	p.total++ // want `data race on Pipe.total: write at chanmutex_test.go:\d+ \((test goroutine|goroutine started at chanmutex_test.go:\d+)\) vs write at chanmutex_test.go:\d+ \((test goroutine|goroutine started at chanmutex_test.go:\d+)\); locks held: \{p.(read|write)Mu.ch\} vs \{p.(read|write)Mu.ch\}`
	p.readMu.Unlock()
}

// Write counts a write holding the write lock.
func (p *Pipe) Write() {
	p.writeMu.Lock()
	p.written++ // silent "common-lock"
	p.total++
	p.writeMu.Unlock()
}

func TestPipe(t *testing.T) {
	p := NewPipe()
	done := make(chan struct{})
	go func() {
		p.Read()
		p.Write()
		close(done)
	}()
	p.Write()
	p.Read()
	<-done
}
