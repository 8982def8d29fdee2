package main

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestServeCache speaks the GOCACHEPROG protocol to the cache program:
// its capabilities first, then a put whose body follows as a base64
// string, a get of it, a get of what was never put, and close.
func TestServeCache(t *testing.T) {
	in := strings.Join([]string{
		`{"ID":1,"Command":"put","ActionID":"AQI=","OutputID":"AwQ=","BodySize":5}`,
		`"aGVsbG8="`, // "hello"
		`{"ID":2,"Command":"get","ActionID":"AQI="}`,
		`{"ID":3,"Command":"get","ActionID":"BQY="}`,
		`{"ID":4,"Command":"close"}`,
	}, "\n") + "\n"
	var out strings.Builder
	if err := serveCache(&diskStore{t.TempDir()}, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	var resps []cacheResponse
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		var r cacheResponse
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		resps = append(resps, r)
	}
	if len(resps) != 5 {
		t.Fatalf("got %d responses, want 5:\n%s", len(resps), out.String())
	}
	if got := strings.Join(resps[0].KnownCommands, ","); resps[0].ID != 0 || got != "get,put,close" {
		t.Errorf("first response: ID %d, commands %q; want 0, get,put,close", resps[0].ID, got)
	}
	put, get, miss := resps[1], resps[2], resps[3]
	if put.ID != 1 || put.Err != "" || put.DiskPath == "" {
		t.Errorf("put: %+v", put)
	}
	if get.ID != 2 || get.Miss || get.Size != 5 || string(get.OutputID) != "\x03\x04" {
		t.Errorf("get: %+v", get)
	} else if body, err := os.ReadFile(get.DiskPath); err != nil || string(body) != "hello" {
		t.Errorf("get: body %q, %v; want hello", body, err)
	}
	if miss.ID != 3 || !miss.Miss {
		t.Errorf("get of what was never put: %+v; want a miss", miss)
	}
	if resps[4].ID != 4 {
		t.Errorf("close: %+v", resps[4])
	}
}
