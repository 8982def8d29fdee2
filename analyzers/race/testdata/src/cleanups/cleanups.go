// Package cleanups checks t.Cleanup: the testing package calls a test's
// cleanups on the test's goroutine once the test function has returned
// (and its subtests have completed), last registered first, not where
// Cleanup was called. The poller the tests share is in the test file, below
// them.
package cleanups
