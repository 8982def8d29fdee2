// Package app calls the lock helpers of effects/lib: their effect comes
// from lib's facts.Effects.
package app

import (
	"sync"

	"effects/lib"
)

var mu sync.Mutex

func use(c *lib.Counter) {
	c.Lock()
	mu.Lock()   // want `Lock: held {p0.0}`
	mu.Unlock() // want `Unlock: held {g:effects/app.mu, p0.0}`
	c.Unlock()
	mu.Lock()   // want `Lock: held {}`
	mu.Unlock() // want `Unlock: held {g:effects/app.mu}`
} // want `return: held {}`

func inc(c *lib.Counter) {
	mu.Lock() // want `Lock: held {}`
	c.Inc()
	mu.Unlock() // want `Unlock: held {g:effects/app.mu}`
} // want `return: held {}`

// ResetAsync takes over c.mu: the caller no longer holds it.
func reset(c *lib.Counter) {
	c.Lock()
	c.ResetAsync()
	mu.Lock()   // want `Lock: held {}`
	mu.Unlock() // want `Unlock: held {g:effects/app.mu}`
} // want `return: held {}`
