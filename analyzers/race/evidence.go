package race

// The evidence of sharing that puts a pair in the default tier is
// ownership's (see ownership.Query.Evidence and the section "Evidence
// of sharing" of package ownership's documentation): a pair without it
// is a possible data race, reported only with the flag -all.

// NoEvidenceNote ends the message of a possible data race: why it is
// one (see PossiblePrefix).
const NoEvidenceNote = "nothing shows that the memory is meant to be shared (no lock or atomic on it, not an object made once, not handed to the goroutine): the goroutines may reach it only through objects the analysis took for one"

// EvidencePrefix begins the related position of a reported pair that
// says, after it, what shows that the memory is shared.
const EvidencePrefix = "shared by goroutines: "
