package blklib

// Pool runs the tasks it is given on its worker goroutine.
type Pool struct{ tasks chan func() }

func NewPool() *Pool {
	p := &Pool{tasks: make(chan func(), 8)}
	go func() {
		for f := range p.tasks {
			f()
		}
	}()
	return p
}

// Submit hands f to the worker.
func (p *Pool) Submit(f func()) { p.tasks <- f }
