// Package directives holds each malformed //origo:ignore form, which is
// reported, and the well-formed forms and look-alikes, which are not.
package directives

var n int

// Well-formed, so not reported as malformed; but nothing runs
// concurrently here, so each silences nothing and is reported as stale
// (package stale has directives that do silence a report, silent).
func good() {
	// want +1 `stale //origo:ignore directive: race reports nothing at main.go:12, so it silences nothing; should it be removed\?`
	n++ //origo:ignore race the counter is approximate
	// want +1 `stale //origo:ignore directive: race and deadlock report nothing at main.go:14, so it silences nothing`
	n++ //origo:ignore race,deadlock a list of analyzers
	// want +1 `stale //origo:ignore directive: blocking reports nothing at main.go:16`
	n++ //origo:ignore blocking	a tab before the reason
	// want +1 `stale //origo:ignore directive: deadlock reports nothing at main.go:19, so it silences nothing`
	//origo:ignore deadlock alone on its line, for the line under it
	n++
}

// Look-alikes that are not directives: silent.
//
// A doc comment may quote the form, "//origo:ignore race <reason>", or
// show it in a code block:
//
//	//origo:ignore rase quoted, not a directive
//
// origo: prose that starts with the tool's name.
// origin: a word close to it.
func lookalikes() {}

// Malformed: each reported at its comment.
func bad() {
	// want +1 `bad //origo:ignore directive: it names no analyzer and gives no reason, so it silences nothing; write //origo:ignore NAME reason \(NAME: blocking, deadlock, guardedby, race\)`
	n++ //origo:ignore

	// want +1 `bad //origo:ignore directive: it gives no reason after race, so it silences nothing; write //origo:ignore race reason`
	n++ //origo:ignore race

	// want +1 `bad //origo:ignore directive: origo has no analyzer "rase" \(did you mean race\?\), so it silences nothing; write //origo:ignore race the counter is approximate`
	n++ //origo:ignore rase the counter is approximate

	// want +1 `bad //origo:ignore directive: origo has no analyzer "deadlok" \(did you mean deadlock\?\), so it silences nothing; write //origo:ignore race,deadlock both`
	n++ //origo:ignore race,deadlok both

	// want +1 `bad //origo:ignore directive: origo has no analyzer "vet" \(the analyzers are blocking, deadlock, guardedby, race\), so it silences nothing; write //origo:ignore NAME x`
	n++ //origo:ignore vet x

	// want +1 `bad //origo:ignore directive: "// origo:ignore" has a space after //, so it is an ordinary comment and silences nothing; write //origo:ignore race x`
	n++ // origo:ignore race x

	// want +1 `bad //origo:ignore directive: "//origo:ingore" is misspelled and silences nothing; write //origo:ignore race x`
	n++ //origo:ingore race x

	// want +1 `bad //origo:ignore directive: "//orgio:ignore" is misspelled and silences nothing; write //origo:ignore race x`
	n++ //orgio:ignore race x

	// want +1 `bad //origo:ignore directive: "// origo:ingore" has a space after // and is misspelled, so it is an ordinary comment and silences nothing; write //origo:ignore race x`
	n++ // origo:ingore race x

	// want +1 `bad //origo:ignore directive: "/\*origo:ignore" is a /\* \*/ comment, which silences nothing; write //origo:ignore race x`
	n++ /*origo:ignore race x*/

	// want +1 `unknown origo directive "//origo:silence": the only one is //origo:ignore NAME reason`
	//origo:silence race x
	n++
}
