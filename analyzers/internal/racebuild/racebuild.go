//go:build race

// Package racebuild tells tests whether they run under the race
// detector. Under -race the analyzers' tests are there to find data
// races in origo itself, which a few fixtures exercise as well as all
// of them: tests that only repeat what the plain run checks (related
// positions, the long tail of fixtures) run a smaller set, so that the
// -race run of the suite fits go test's ten minutes per package on two
// cores.
package racebuild

// Enabled says the test binary was built with -race.
const Enabled = true
