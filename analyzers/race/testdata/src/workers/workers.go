// Package workers checks hand-overs in worker loops: a worker receives
// a job, fills it and sends it on. Each iteration works on the job its
// own receive gave, so the send after the write hands that job over,
// though the next iteration writes "the same" abstract job.
package main

type job struct{ n, m, k int }

// fill writes the job it received, then sends it: silent.
func fill(in <-chan *job, out chan<- *job) {
	for j := range in {
		j.n = 1 // silent "handover"
		out <- j
	}
}

// late writes the job after sending it: a race with the reader.
func late(in <-chan *job, out chan<- *job) {
	for j := range in {
		out <- j
		j.m = 2 // want `data race on job.m`
	}
}

// offer sends through a select that may give up: a send case that is
// taken hands the job over as a send does. Silent.
func offer(in <-chan *job, out chan<- *job, done <-chan bool) {
	for j := range in {
		j.k = 3 // silent "handover"
		select {
		case out <- j:
		case <-done:
			return
		}
	}
}

func use(int) {}

func main() {
	in, out := make(chan *job), make(chan *job)
	go fill(in, out)
	in <- &job{}
	use((<-out).n)

	in2, out2 := make(chan *job), make(chan *job)
	go late(in2, out2)
	in2 <- &job{}
	use((<-out2).m)

	in3, out3, done := make(chan *job), make(chan *job), make(chan bool)
	go offer(in3, out3, done)
	in3 <- &job{}
	use((<-out3).k)
	close(done)
}
