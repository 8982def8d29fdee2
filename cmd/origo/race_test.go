//go:build race

package main

// raceEnabled says this test binary was built with -race: the origo
// binary it runs is then built with -race too, so that a data race in
// origo itself fails the tests that run it as go vet does.
const raceEnabled = true
