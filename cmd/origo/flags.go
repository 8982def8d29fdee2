package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"golang.org/x/tools/go/analysis"
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

// registerAllFlag gives the standalone command the flag -all (under go
// vet, whose flags have a legacy -all of their own, it is -race.all).
func registerAllFlag(fs *flag.FlagSet) {
	fs.Var(allValue{}, "all", "report the possible data races too: pairs nothing shows to be shared (no lock or atomic on the memory, not a package-level variable, not handed to the goroutine)")
}

// allValue is the -all flag: it sets the flag of that name of every
// analyzer that has one (race's lower tier, see its manual).
type allValue struct{}

func (allValue) String() string { return "false" }

func (allValue) IsBoolFlag() bool { return true }

func (allValue) Set(s string) error {
	for _, a := range suite {
		if a.Flags.Lookup("all") != nil {
			if err := a.Flags.Set("all", s); err != nil {
				return err
			}
		}
	}
	return nil
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

// choice is an analyzer's flag of the standalone command, -NAME, as go
// vet has one per analyzer: set says whether the command line gave it.
type choice struct {
	set, on bool
}

func (c *choice) String() string {
	if c == nil || !c.set {
		return "unset"
	}
	return fmt.Sprint(c.on)
}

func (c *choice) IsBoolFlag() bool { return true }

func (c *choice) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	c.set, c.on = true, on
	return nil
}

// registerAnalyzerFlags gives fs a flag -NAME per analyzer of the suite
// that a user runs (the debugging one is -dump's), and returns them by
// analyzer.
func registerAnalyzerFlags(fs *flag.FlagSet) map[*analysis.Analyzer]*choice {
	choices := make(map[*analysis.Analyzer]*choice)
	for _, a := range suite {
		if debugging(a) {
			continue
		}
		c := new(choice)
		choices[a] = c
		fs.Var(c, a.Name, "enable the "+a.Name+" analyzer: "+title(a.Doc))
	}
	return choices
}

// selectAnalyzers returns the analyzers to run, picked as go vet (and
// x/tools' analysisflags) picks them: if any -NAME flag is true, only
// those; otherwise, if any is false, all but those; otherwise all. The
// debugging analyzer always runs: it reports only what -dump asks for.
func selectAnalyzers(choices map[*analysis.Analyzer]*choice) []*analysis.Analyzer {
	anyOn := false
	for _, c := range choices {
		anyOn = anyOn || c.set && c.on
	}
	var out []*analysis.Analyzer
	for _, a := range suite {
		c := choices[a]
		switch {
		case c == nil: // debugging
		case anyOn && !(c.set && c.on):
			continue
		case !anyOn && c.set && !c.on:
			continue
		}
		out = append(out, a)
	}
	return out
}
