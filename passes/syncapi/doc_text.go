package syncapi

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"
)

// concurrentDoc matches documentation that says a type or function may
// be used by goroutines at once.
var concurrentDoc = regexp.MustCompile(`(?i)safe for (concurrent|simultaneous|parallel) use|(concurrency|goroutine|thread)[- ]safe|safe to (use|call) (from|by|across) (multiple|several|many|concurrent) goroutines|by multiple goroutines simultaneously`)

// notConcurrentDoc matches documentation that says it may not: "is not
// safe for concurrent use", "not thread-safe", "a non-thread safe
// queue", "thread-unsafe", "must not be called concurrently", and the
// same contracted ("a transaction itself isn't thread safe", "mustn't be
// used concurrently").
var notConcurrentDoc = regexp.MustCompile(`(?i)\bnon[- ]?(concurrency|goroutine|thread)[- ]?safe|\b(concurrency|goroutine|thread)[- ]?unsafe|\bunsafe\s+for\s+(concurrent|simultaneous|parallel)\s+use|(\bnot\s+|n't\s+)(safe\s+for\s+(concurrent|simultaneous|parallel)|(concurrency|goroutine|thread)[- ]safe|safe\s+to\s+(use|call)\b[^.]{0,40}?\b(concurrently|simultaneously|from\s+(multiple|several|many|concurrent)\s+goroutines))|\b((must|should|may)(\s+not|n't)|cannot|can\s+not|can't)\s+be\s+(used|called|shared)\s+(concurrently|from\s+(multiple|several|many|concurrent)\s+goroutines|by\s+(multiple|several|many|concurrent)\s+goroutines|(across|between)\s+goroutines)`)

// DocConcurrent reads a doc comment's promise about concurrent use: 1
// where it says that the type or function is safe for concurrent use,
// -1 where it says that it is not, 0 where it says neither. A negation
// wins: "not thread-safe" says thread-safe too. The promise is read
// across the comment's line breaks ("It's safe for\nconcurrent use"):
// runs of white space read as one space.
func DocConcurrent(text string) int {
	text = strings.Join(strings.Fields(text), " ")
	switch {
	case notConcurrentDoc.MatchString(text):
		return -1
	case concurrentDoc.MatchString(text):
		return 1
	}
	return 0
}

// DocumentedTypes returns the types declared in files whose doc comment
// makes the promise DocConcurrent reads as promise: 1 for safe for
// concurrent use, -1 for not. info resolves the declarations.
func DocumentedTypes(files []*ast.File, info *types.Info, promise int) map[*types.TypeName]bool {
	out := make(map[*types.TypeName]bool)
	typeDocs(files, func(ts *ast.TypeSpec, doc *ast.CommentGroup) {
		if DocConcurrent(doc.Text()) == promise {
			if tn, ok := info.Defs[ts.Name].(*types.TypeName); ok {
				out[tn] = true
			}
		}
	})
	return out
}

// typeDocs calls fn with each type declaration of files that has a doc
// comment, and that comment: the spec's own, or its declaration's when
// the declaration declares it alone.
func typeDocs(files []*ast.File, fn func(ts *ast.TypeSpec, doc *ast.CommentGroup)) {
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if doc != nil {
					fn(ts, doc)
				}
			}
		}
	}
}
