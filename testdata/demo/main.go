// Command demo is origo's bundled demo: a small bank that applies
// transfers on a pool of workers. It has one data race (bank.go, in
// worker) and one deadlock (bank.go, in Report), each marked where it is.
// Everything else is correctly synchronized: the balances are guarded by
// their account's mutex, and main reads the results only after the
// WaitGroup join.
package main

import "fmt"

func main() {
	bank := NewBank(4, 100)
	jobs := make(chan Transfer)
	done := bank.Run(3, jobs)
	for i := range 10 {
		jobs <- Transfer{From: bank.Account(i % 4), To: bank.Account((i + 1) % 4), Amount: 5}
	}
	close(jobs)
	done.Wait()
	fmt.Println(bank.Report())
}
