// Package runjoinlib makes objects for runjoin, in another package.
package runjoinlib

type Box struct{ N int }

func New() *Box { return &Box{} }
