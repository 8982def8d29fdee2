package manytests

import (
	"sync"
	"testing"
)

func TestLong01(t *testing.T) { long() }
func TestLong02(t *testing.T) { long() }
func TestLong03(t *testing.T) { long() }
func TestLong04(t *testing.T) { long() }
func TestLong05(t *testing.T) { long() }
func TestLong06(t *testing.T) { long() }
func TestLong07(t *testing.T) { long() }
func TestLong08(t *testing.T) { long() }
func TestLong09(t *testing.T) { long() }
func TestLong10(t *testing.T) { long() }
func TestLong11(t *testing.T) { long() }
func TestLong12(t *testing.T) { long() }
func TestLong13(t *testing.T) { long() }
func TestLong14(t *testing.T) { long() }
func TestLong15(t *testing.T) { long() }
func TestLong16(t *testing.T) { long() }
func TestLong17(t *testing.T) { long() }
func TestLong18(t *testing.T) { long() }
func TestLong19(t *testing.T) { long() }
func TestLong20(t *testing.T) { long() }
func TestLong21(t *testing.T) { long() }
func TestLong22(t *testing.T) { long() }
func TestLong23(t *testing.T) { long() }
func TestLong24(t *testing.T) { long() }
func TestLong25(t *testing.T) { long() }
func TestLong26(t *testing.T) { long() }
func TestLong27(t *testing.T) { long() }
func TestLong28(t *testing.T) { long() }
func TestLong29(t *testing.T) { long() }
func TestLong30(t *testing.T) { long() }
func TestLong31(t *testing.T) { long() }
func TestLong32(t *testing.T) { long() }
func TestLong33(t *testing.T) { long() }
func TestLong34(t *testing.T) { long() }
func TestLong35(t *testing.T) { long() }
func TestLong36(t *testing.T) { long() }
func TestLong37(t *testing.T) { long() }
func TestLong38(t *testing.T) { long() }
func TestLong39(t *testing.T) { long() }

func TestLast(t *testing.T) { racy() }

var shared int

// racy, test code, starts a goroutine that writes shared, and writes it too before
// the join: the test's own write races with the goroutine's.
func racy() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); shared++ }() // want `data race on shared`
	shared++
	wg.Wait()
	shared++ // silent "happens-before"
}
