package syncapi

import "testing"

func TestDocConcurrent(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"A Pool is safe for concurrent use by multiple goroutines.", 1},
		{"Client is goroutine-safe.", 1},
		{"PgConn is a low-level PostgreSQL connection handle. It is not safe for concurrent usage.", -1},
		{"Warning: Allocate is not thread-safe.", -1},
		{"Conn must not be used concurrently.", -1},
		{"It is not safe to call Write from multiple goroutines.", -1},
		{"BytesQueue is a non-thread safe queue type of fifo based on bytes array.", -1},
		{"Stream is a non-thread-safe in-memory data structure.", -1},
		{"The map is thread-unsafe.", -1},
		{"Buffer is unsafe for concurrent use.", -1},
		{"BGReader is an io.Reader that can optionally buffer reads in the background. It is safe for concurrent use.", 1},
		{"Ring is a Redis client that uses consistent hashing to distribute\nkeys across multiple Redis servers (shards). It's safe for\nconcurrent use by multiple goroutines.\n", 1},
		{"Conn is not safe for\n\tconcurrent use.", -1},
		{"Running transactions concurrently is OK. However, a transaction itself isn't thread safe, and should only be run serially.", -1},
		{"A Cursor isn't safe for concurrent use.", -1},
		{"Close mustn't be called concurrently with Write.", -1},
		{"A Session cannot be used concurrently.", -1},
		{"It can't be shared between goroutines.", -1},
		{"Builder builds strings.", 0},
	} {
		if got := DocConcurrent(c.text); got != c.want {
			t.Errorf("DocConcurrent(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}
