package main

import "context"

// tx waits for its context in a goroutine; Rollback cancels it.
type tx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func begin(ctx context.Context) *tx {
	ctx, cancel := context.WithCancel(ctx)
	t := &tx{ctx: ctx, cancel: cancel}
	go t.awaitDone()
	return t
}

func (t *tx) awaitDone() {
	<-t.ctx.Done() // want `receive from ctx.Done\(\) blocks forever: the context comes from context.WithCancel at cancel.go:\d+ over a context that is never done, and nothing calls its cancel function`
}

func (t *tx) Rollback() { t.cancel() }

// rows cancels only once its own wait is over.
type rows struct{ cancel context.CancelFunc }

func (r *rows) init(ctx context.Context) {
	ctx, r.cancel = context.WithCancel(ctx)
	go r.awaitDone(ctx)
}

func (r *rows) awaitDone(ctx context.Context) {
	<-ctx.Done() // want `receive from ctx.Done\(\) blocks forever`
	r.close()
}

func (r *rows) close() { r.cancel() }

// job is canceled by its owner: silent.
type job struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func (j *job) wait() { <-j.ctx.Done() } // silent "partner"

func (j *job) stop() { j.cancel() }

// Cancels runs the three: Rollback is never called, rows closes only
// itself, the job is stopped.
func Cancels() {
	begin(context.Background())
	r := &rows{}
	r.init(context.TODO())
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{ctx: ctx, cancel: cancel}
	go j.wait()
	j.stop()
}
