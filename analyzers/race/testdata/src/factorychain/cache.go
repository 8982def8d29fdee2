// Package factorychain is a cache whose constructor is a chain of three
// factories (Must calls New calls newCache, which allocates), each
// cache calling the deletion hook its caller gave it: every caller's
// cache is its own, though the two innermost calls are the same for all
// (rule factory-chain).
package main

import "sync"

type Options struct {
	OnDelete func(k int)
}

type cache struct {
	mu       sync.Mutex
	items    map[int]int
	onDelete func(k int)
}

type Cache struct {
	c *cache
}

func newCache(o *Options) *cache {
	return &cache{items: make(map[int]int), onDelete: o.OnDelete}
}

func New(o *Options) *Cache {
	return &Cache{c: newCache(o)}
}

func Must(o *Options) *Cache {
	c := New(o)
	if c == nil {
		panic("no cache")
	}
	return c
}

// Delete calls the hook without the lock; CleanUp calls it holding it.
func (c *Cache) Delete(k int) {
	c.c.mu.Lock()
	delete(c.c.items, k)
	c.c.mu.Unlock()
	c.c.onDelete(k)
}

func (c *Cache) CleanUp() {
	c.c.mu.Lock()
	defer c.c.mu.Unlock()
	for k := range c.c.items {
		delete(c.c.items, k)
		c.c.onDelete(k)
	}
}

func (c *Cache) Set(k, v int) {
	c.c.mu.Lock()
	c.c.items[k] = v
	c.c.mu.Unlock()
}
