package pointer

// ForceSummaryGroups makes the summaries be made as past their bounds,
// each exported function apart, until undo is called.
func ForceSummaryGroups() (undo func()) {
	forceSummaryGroups = true
	return func() { forceSummaryGroups = false }
}
