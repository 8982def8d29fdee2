package facts

// Version is the format version of every fact in this package.
// Decoders ignore facts whose version differs.
const Version uint16 = 11
