package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
)

// dumpValue is the -dump flag: it selects the facts that factdump reports.
type dumpValue struct{}

func (dumpValue) String() string { return factdump.Mode }

func (dumpValue) Set(s string) error {
	if s != "" && !slices.Contains(factdump.Modes, s) {
		return fmt.Errorf("unknown -dump mode %q (want one of: %s)", s, strings.Join(factdump.Modes, ", "))
	}
	factdump.Mode = s
	return nil
}

func registerDumpFlag(fs *flag.FlagSet) {
	fs.Var(dumpValue{}, "dump", "report the facts of a pass as diagnostics, for debugging: "+strings.Join(factdump.Modes, ", "))
	fs.Var(generatedValue{}, "generated", "report in generated files (marked \"// Code generated ... DO NOT EDIT.\") too")
}

// generatedValue is the -generated flag: it sets the flag of that name
// of every analyzer that has one.
type generatedValue struct{}

func (generatedValue) String() string { return "false" }

func (generatedValue) IsBoolFlag() bool { return true }

func (generatedValue) Set(s string) error {
	for _, a := range suite {
		if a.Flags.Lookup("generated") != nil {
			if err := a.Flags.Set("generated", s); err != nil {
				return err
			}
		}
	}
	return nil
}
