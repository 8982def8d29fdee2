// Package directive defines an Analyzer that reports malformed
// "//origo:ignore" directives, and those that silence nothing.
//
// # Analyzer directive
//
// directive: report malformed or stale //origo:ignore directives
//
// A directive
//
//	//origo:ignore NAME[,NAME...] reason
//
// silences the reports of the analyzers it names (race, deadlock,
// blocking, guardedby) on its line, when it ends a line of code, or on the line
// under its block of comments, when it stands alone on its line. A
// directive that is not quite one silences nothing, and the report it
// was meant for still shows; so that the two are not confused, this
// analyzer reports each such comment, once, with the form to write:
//
//   - "//origo:ignore" with no analyzer name, or no reason;
//   - an analyzer origo does not have ("//origo:ignore rase ...", with
//     the name it is closest to);
//   - a space after the slashes ("// origo:ignore race ..."), which
//     makes it an ordinary comment, as for Go's own directives;
//   - a misspelling within two letters of "origo:ignore"
//     ("//origo:ingore", "//orgio:ignore", "//Origo:Ignore");
//   - a /* */ comment;
//   - any other "//origo:" directive, of which there is none.
//
// WRONG:
//
//	n++ // origo:ignore race the counter is approximate
//
// RIGHT:
//
//	n++ //origo:ignore race the counter is approximate
//
// The reason is for the reader: why the report is wrong here, or why
// the behaviour is accepted.
//
// A well-formed directive that silences nothing is reported too, as
// staticcheck reports a //lint:ignore that matched nothing: the report
// it was written for is gone (the code was fixed, or moved), and left
// in place it would silence the next report on its line, unread:
//
//	stale //origo:ignore directive: race reports nothing at p.go:12, so it silences nothing; should it be removed?
//
// For a list of analyzers of which some silence a report and others
// nothing, the message names the latter and gives the directive to
// write. Each analyzer a directive names says, in its Result, which
// directives silenced one of its reports: that is known only in its own
// run on the package, under go vet as under the other drivers. An
// analyzer that stopped early on the package (too large for the pointer
// analysis) or failed says nothing of its directives, and none of them
// is reported as stale.
//
// # Report kinds
//
// Each report carries its kind as its category (the "category" of go vet
// -json and origo -json, the rule of a SARIF result; see package kinds):
//
// directive/malformed: a comment that tries to be an //origo:ignore
// directive and is not one, listed above, so it silences nothing; the
// message gives the form to write.
//
// directive/stale: a well-formed directive that silences no report of
// the analyzers it names on its line, listed above: the report it was
// written for is gone, and it would silence the next one unread.
//
// # Known limits
//
// A directive after other text in the same comment
// ("// note //origo:ignore race ...") is part of that comment and
// silences nothing, and is not reported: prose that mentions the
// directive looks the same. Nothing is reported in generated files
// unless the flag "generated" is set, as for the other analyzers.
// directive requires the analyzers whose directives it checks, so it
// runs where they run: not on a package that does not type-check, and
// with -directive alone they run too (their reports are not shown).
// An analyzer that checked a package but gave up on part of it (a
// budget hit, which it reports on standard error) may leave a directive
// unused there that would silence a report: such a stale report is
// wrong; raise the budget's concern rather than remove the directive.
package directive
