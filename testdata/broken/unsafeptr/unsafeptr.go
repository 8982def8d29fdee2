// Package unsafeptr uses unsafe.Pointer and reflect.
package unsafeptr

import (
	"reflect"
	"unsafe"
)

type header struct {
	data unsafe.Pointer
	n    int
}

// Peek reads memory through unsafe.Pointer and calls a method found by
// reflection on another goroutine.
func Peek(s []byte, v any) int {
	h := (*header)(unsafe.Pointer(&s))
	go reflect.ValueOf(v).MethodByName("Run").Call(nil)
	return h.n
}
