//go:build fixrun

package main

import (
	"fmt"
	"sync"
)

// mustBeFree panics unless mu is unlocked.
func mustBeFree(what string, mu *sync.Mutex) {
	if !mu.TryLock() {
		panic(what + " left its mutex locked")
	}
	mu.Unlock()
}

// mustBeHeld panics unless mu is locked.
func mustBeHeld(what string, mu *sync.Mutex) {
	if mu.TryLock() {
		panic(what + " unlocked its caller's mutex")
	}
}

// main runs each function on the path a fix is about (in main.go, the
// fixed functions leave their mutex locked: it is meant to run on the
// fixes applied), and the functions entered with the lock held as their
// callers do.
func main() {
	b := &Bank{}
	b.first()
	mustBeFree("first", &b.mu)
	b.reload()
	mustBeFree("reload", &b.mu)
	b.accounts = []int{-1}
	b.check()
	mustBeFree("check", &b.mu)
	b.reset(false)
	mustBeFree("reset", &b.mu)
	c := &Cache{}
	c.get("k")
	if !c.mu.TryLock() {
		panic("get left its read lock")
	}
	c.mu.Unlock()

	cn := &Conn{closed: true}
	cn.wait()
	mustBeFree("wait", &cn.mu)
	cn.mu.Lock()
	cn.waitLocked()
	mustBeHeld("waitLocked", &cn.mu)
	cn.flushLocked(func([]int) {})
	cn.queue = []int{1}
	cn.flushLocked(func([]int) {})
	mustBeHeld("flushLocked", &cn.mu)
	cn.sendLocked(func(int) {})
	cn.closed = false
	cn.sendLocked(func(int) {})
	mustBeHeld("sendLocked", &cn.mu)
	cn.mu.Unlock()
	fmt.Println("ok")
}
