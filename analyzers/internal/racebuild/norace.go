//go:build !race

package racebuild

// Enabled says the test binary was built with -race.
const Enabled = false
