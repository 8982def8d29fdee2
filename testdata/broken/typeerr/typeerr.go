// Package typeerr does not type-check, on purpose: origo must say so in
// one line and go on with the other packages.
package typeerr

func Answer() int { return "forty-two" }
