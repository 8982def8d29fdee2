// Package golangci makes origo a golangci-lint v2 module plugin: a
// custom golangci-lint binary that links this package runs origo's
// analyzers as the linter "origo".
//
// Build the binary with "golangci-lint custom" and a .custom-gcl.yml:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/origo-dev/origo
//	    import: github.com/origo-dev/origo/analyzers/golangci
//	    path: /path/to/origo    # a local checkout; or version: vX.Y.Z, not both
//
// and enable the linter in .golangci.yml:
//
//	version: "2"
//	linters:
//	  default: none
//	  enable:
//	    - origo
//	  settings:
//	    custom:
//	      origo:
//	        type: module
//	        description: static data races, deadlocks and goroutine leaks
//	        settings:
//	          analyzers: [race, deadlock, blocking, guardedby, directive]   # the default
//	          generated: false                        # the default
//	          related: false                          # the default
//
// The settings, all optional:
//
//   - analyzers: which of origo's analyzers run, by name: race, deadlock,
//     blocking, guardedby and directive (all of them by default). An
//     empty list, an unknown name and the debugging analyzer of the
//     origo command (factdump) are refused with an error that lists the
//     names.
//   - generated: report in files marked "// Code generated ... DO NOT
//     EDIT." too, like the origo command's -generated flag. golangci-lint
//     also drops the issues of generated files on its own unless
//     linters.exclusions.generated is "disable", so both must be set.
//   - related: keep each report's related positions (the other access,
//     where a goroutine was started, where the mutex was locked), which
//     golangci-lint shows as issues of their own ("race(related
//     information): ..."). Off by default: origo's messages name those
//     positions already, and the demo then gives its two issues, not
//     six.
//
// Any other key is refused with an error that lists the known ones.
//
// Two things are not settings. Library mode: origo treats every package
// not named main as a library (the exported methods of exported types
// that carry a mutex or atomics are roots, as if called concurrently,
// see package origins), in every driver, with no switch to turn it off.
// And the "//origo:ignore NAME reason" comments: they always silence
// the named analyzer's report on their line, as under the origo command;
// golangci-lint's own "//nolint:origo" silences them all.
//
// The plugin asks golangci-lint for its "typesinfo" load mode: origo
// needs the syntax and types of each package and the facts its passes
// export on the imports, which golangci-lint computes by running the
// same analyzers on the dependencies from source.
//
// "go run ./cmd/origo-bench golangci" builds such a binary from the
// module proxy and this checkout, runs it on testdata/demo, and checks
// that the demo's data race and deadlock are reported.
package golangci
