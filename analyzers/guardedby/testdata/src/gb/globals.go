package gb

import "sync"

var (
	// +checklocks:countMu
	count   int // want count:`guarded\(countMu at globals\.go:6\)`
	countMu sync.Mutex
	names   = map[string]int{} // +checklocks:state.mu // want names:`guarded\(state\.mu at globals\.go:9\)`
)

var state struct{ mu sync.RWMutex }

// +checklocks:countMu
var standalone int // want standalone:`guarded\(countMu at globals\.go:14\)`

func Globals() {
	countMu.Lock()
	count++
	standalone = count
	countMu.Unlock()
	count++        // want `write to count without countMu held \(annotated \+checklocks:countMu at globals.go:6\)`
	_ = standalone // want `read of standalone without countMu held`
	names["x"] = 1 // want `write to names without state.mu held`
	state.mu.RLock()
	_ = names["x"]
	names["y"] = 2 // want `write to names with state.mu held only for reading`
	state.mu.RUnlock()
	addLocked() // want `call of addLocked without countMu held \(annotated \+checklocks:countMu at globals.go:35\)`
	countMu.Lock()
	addLocked()
	countMu.Unlock()
}

// +checklocks:countMu
func addLocked() { // want addLocked:`guarded\(countMu at globals\.go:35\)`
	count++
}

type Either struct {
	Mu      sync.Mutex
	OtherMu sync.RWMutex

	// +checklocks:Mu
	// +checklocks:OtherMu
	Value int // +checklocksreadany // want Value:`guarded\(Mu at globals\.go:44; OtherMu at globals\.go:45; read any\)`
}

func (e *Either) Read() int {
	e.OtherMu.RLock()
	defer e.OtherMu.RUnlock()
	return e.Value
}

func (e *Either) Write() {
	e.Mu.Lock()
	e.Value++ // want `write to e.Value without e.OtherMu held \(annotated \+checklocks:OtherMu at globals.go:45\)`
	e.Mu.Unlock()
	_ = e.Value // want `read of e.Value without e.Mu or e.OtherMu held \(annotated \+checklocks:Mu at globals.go:44\)`
	e.Mu.Lock()
	e.OtherMu.Lock()
	e.Value++
	e.OtherMu.Unlock()
	e.Mu.Unlock()
}
