// Package testreport checks reports to a test (t.Log, t.Errorf) from
// goroutines that the test may or may not wait for.
package testreport
