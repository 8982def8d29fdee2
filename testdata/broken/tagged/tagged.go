// Command tagged races only in a file that the build tag "special"
// selects.
package main

var hits int

func work() { hits++ }

func main() { work() }
