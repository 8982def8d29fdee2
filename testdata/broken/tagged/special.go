//go:build special

package main

func init() { go func() { hits++ }() }
