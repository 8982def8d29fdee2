// Package buildir defines an Analyzer that builds the SSA form of a
// package for origo's passes.
//
// It differs from x/tools' buildssa in one way that matters to origo:
// generic functions are instantiated (ssa.InstantiateGenerics), so each
// instantiation used by the package has a body with concrete types, and
// the pointer analysis sees through type parameters.
//
// Like buildssa it exports no facts: building SSA for a package must not
// require building it for every dependency.
package buildir
