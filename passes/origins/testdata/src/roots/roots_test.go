package roots

import "testing"

func TestSerial(t *testing.T) {}

func TestParallel(t *testing.T) {
	t.Parallel()
}

func Testlower(t *testing.T) {} // not a test: lower-case after "Test"

func helper(t *testing.T) {}

func BenchmarkX(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {})
}

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {})
}

func Test(t *testing.T) {}
