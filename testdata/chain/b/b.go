// Package b sits between a and c and starts nothing itself.
package b

import "example.com/chain/c"

// Server serves requests on a pool from package c.
type Server struct{ pool *c.Pool }

// New starts the server's pool: its fact carries c's origins to a.
func New() *Server { // want New:`^origins\(go c.worker c.go:23 multi\)$`
	return &Server{pool: c.Start(4)}
}

// Pool hands out the *c.Pool; the facts of its methods travel with b's.
func (s *Server) Pool() *c.Pool { return s.pool }
