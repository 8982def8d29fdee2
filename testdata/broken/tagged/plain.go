//go:build !special

package main
