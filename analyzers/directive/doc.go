// Package directive defines an Analyzer that reports malformed
// "//origo:ignore" directives.
//
// # Analyzer directive
//
// directive: report malformed //origo:ignore directives
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
// # Report kinds
//
// Each report carries its kind as its category (the "category" of go vet
// -json and origo -json, the rule of a SARIF result; see package kinds):
//
// directive/malformed: a comment that tries to be an //origo:ignore
// directive and is not one, listed above, so it silences nothing; the
// message gives the form to write.
//
// # Known limits
//
// A directive after other text in the same comment
// ("// note //origo:ignore race ...") is part of that comment and
// silences nothing, and is not reported: prose that mentions the
// directive looks the same. Nothing is reported in generated files
// unless the flag "generated" is set, as for the other analyzers.
package directive
