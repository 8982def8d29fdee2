// Package testruns checks that the tests, which run one after the
// other in one goroutine, each work on the objects they make: a
// goroutine that one test starts and leaves running touches that test's
// objects, not the next test's, though they are one abstract object.
package testruns

type server struct {
	cfg int
}

func (s *server) start() {
	s.cfg = 1
	go s.run()
}

func (s *server) run() { println(s.cfg) }

// cache is started by one test and written by the next (see TestE).
type cache struct {
	size int
}

func (c *cache) start() {
	c.size = 1
	go c.run()
}

func (c *cache) run() { println(c.size) }
