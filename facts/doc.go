// Package facts defines every fact type that origo's passes export.
//
// Facts are how a summary computed for one package reaches the packages
// that import it. Under "go vet" each package is analyzed in its own
// process and sees only the facts of its direct imports; x/tools
// re-exports imported facts on methods, fields and types, but not facts
// on other packages' functions, variables or the packages themselves.
// A fact must therefore already contain what importers need: summaries
// are closed over their callees.
//
// The types here are gob-encoded into the build cache and into the
// analysis caches of gopls, so they follow three rules:
//
//   - Compact: each fact interns its strings in a small table and refers
//     to them by index, and a closed summary is capped in size so that it
//     does not grow with the amount of code beneath it. The package
//     facts (Effects, Locks, PointerSummaries, OriginsTable) are written
//     in a binary form of their own, not gob's (see wire.go), and deflated
//     on the way (see pack.go): their positions repeat long file paths.
//     Summaries are package facts, never object facts on functions or
//     methods: x/tools re-exports an import's object facts on methods in
//     each importer's facts, which then grow with the import graph.
//   - Deterministic: no maps, and every slice is sorted before export, so
//     that the same input gives byte-identical facts (their hash keys the
//     caches of every reverse dependency).
//   - Versioned: each fact records [Version]. A fact decoded from an entry
//     written by another format version is treated as absent, never
//     misread. Bump Version whenever the meaning or shape of a field
//     changes.
package facts
