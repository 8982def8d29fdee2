package libmode

import "testing"

func TestTransport(t *testing.T) {
	tr := &Transport{}
	tr.Start()
	tr.AddPeer(1)
	tr.Stop()
}

func TestCache(t *testing.T) {
	c := &Cache{}
	go c.Put(1)
	c.Clear()
}
