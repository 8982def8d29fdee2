package syncapi

// internalPackages are the packages whose memory is not data for their
// callers: the runtime's, the state of sync's primitives (a mutex's own
// fields are synchronization), and the testing package's (each test has
// its own T, which the pointer analysis does not tell apart).
var internalPackages = map[string]bool{"runtime": true, "sync": true, "internal/sync": true, "sync/atomic": true, "testing": true}

// Internal reports whether the package with this path is one whose
// functions' effects on memory and mutexes are left out of the facts
// that summarize them for importers.
func Internal(pkgPath string) bool { return internalPackages[pkgPath] }
