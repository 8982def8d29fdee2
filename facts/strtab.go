package facts

// An Interner builds the string table of one fact, so that each string
// is written once however many entries refer to it. Index 0 is always "".
type Interner struct {
	strings []string
	index   map[string]uint32
}

// Intern returns the index of s, adding it to the table if needed.
func (in *Interner) Intern(s string) uint32 {
	if in.index == nil {
		in.strings = []string{""}
		in.index = map[string]uint32{"": 0}
	}
	if i, ok := in.index[s]; ok {
		return i
	}
	i := uint32(len(in.strings))
	in.strings = append(in.strings, s)
	in.index[s] = i
	return i
}

// Strings returns the table, in order of first use.
func (in *Interner) Strings() []string {
	if in.strings == nil {
		return []string{""}
	}
	return in.strings
}
