package factories

// A Store keeps hooks that call each other through it (ristretto's
// onEvict calling onExit). A closure that captures the Store it is
// stored into goes only where the Store goes, and when its body
// publishes nothing, calling it publishes nothing either (ownership's
// "Publication"). Each Store's goroutine reads it while other calls make
// new ones at the same allocation site.
type Store struct {
	onExit  func(int)
	onEvict func(int)
	size    int
}

func (s *Store) run() { s.onEvict(s.size) }

// NewStore's hooks capture the Store and are stored into it: its writes
// before the go statement are silent.
func NewStore() *Store {
	s := &Store{}
	s.onExit = func(int) {}
	s.onEvict = func(v int) { s.onExit(v) }
	s.onEvict(0)
	s.size = 1 // silent "not-published"
	go s.run()
	return s
}

// NewHookedStore sets its hooks one call away, in setHooks.
func NewHookedStore() *Store {
	s := &Store{}
	s.setHooks()
	s.size = 2 // silent "not-published"
	go s.run()
	return s
}

func (s *Store) setHooks() {
	s.onExit = func(int) {}
	s.onEvict = func(v int) { s.onExit(v + s.size) }
}

var stores = make(chan *Store, 8)

// Serve runs, on a goroutine of its own, the Stores handed to it.
func Serve() {
	go func() {
		for s := range stores {
			s.run()
		}
	}()
}

// NewEagerStore's hook hands the Store to Serve's goroutine when called:
// the call publishes the Store, and the write after races.
func NewEagerStore() *Store {
	Serve()
	s := &Store{}
	s.onExit = func(int) { stores <- s }
	s.onEvict = func(v int) { s.onExit(v) }
	s.onEvict(0)
	s.size = 3 // want `data race on Store.size`
	return s
}
