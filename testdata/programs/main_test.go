package main

import "testing"

func TestRun(t *testing.T) { run() }
