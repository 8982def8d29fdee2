package main

import (
	"fmt"
	"sync"
)

// Account is one customer account; mu guards balance.
type Account struct {
	mu      sync.Mutex
	ID      int
	balance int
}

// Bank moves money between accounts on a pool of workers.
type Bank struct {
	mu        sync.Mutex // guards accounts
	accounts  []*Account
	processed int // transfers done, counted by the workers
}

// Transfer is one job for the pool.
type Transfer struct {
	From, To *Account
	Amount   int
}

// NewBank opens n accounts with the same opening balance.
func NewBank(n, opening int) *Bank {
	b := new(Bank)
	for i := range n {
		b.accounts = append(b.accounts, &Account{ID: i, balance: opening})
	}
	return b
}

// Account returns account i.
func (b *Bank) Account(i int) *Account {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.accounts[i]
}

// Run starts workers that apply the transfers sent on jobs, and returns
// a WaitGroup that is done when jobs is closed and drained.
func (b *Bank) Run(workers int, jobs <-chan Transfer) *sync.WaitGroup {
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go b.worker(jobs, &wg)
	}
	return &wg
}

func (b *Bank) worker(jobs <-chan Transfer, wg *sync.WaitGroup) {
	defer wg.Done()
	for t := range jobs {
		move(t.From, t.To, t.Amount)
		b.processed++ // RACE: every worker writes b.processed, and none holds b.mu
	}
}

// move locks one account at a time, so it cannot deadlock with itself.
func move(from, to *Account, amount int) {
	from.mu.Lock()
	from.balance -= amount
	from.mu.Unlock()

	to.mu.Lock()
	to.balance += amount
	to.mu.Unlock()
}

// Total sums the balances of every account.
func (b *Bank) Total() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	total := 0
	for _, a := range b.accounts {
		a.mu.Lock()
		total += a.balance
		a.mu.Unlock()
	}
	return total
}

// Report describes the bank.
func (b *Bank) Report() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	// DEADLOCK: Total locks b.mu again, and sync.Mutex is not reentrant.
	return fmt.Sprintf("%d accounts, %d transfers, total %d", len(b.accounts), b.processed, b.Total())
}
