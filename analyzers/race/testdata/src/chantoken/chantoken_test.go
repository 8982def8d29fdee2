package chantoken

import "testing"

func TestWriter(t *testing.T) {
	w := NewWriter()
	done := make(chan struct{})
	go func() {
		w.Write([]byte("a"))
		w.Note(1)
		close(done)
	}()
	w.Reset()
	w.Note(2)
	NotifyTwice()
	<-done
}
