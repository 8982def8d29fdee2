package shb

import (
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// objects numbers the abstract locations that synchronization objects
// and locks are, and caches what the walkers ask of every function.
type objects struct {
	ptr   *pointer.Result
	ids   map[pointer.Location]int32
	locs  []pointer.Location
	pts   map[ptsKey][]int32
	comps map[*ssa.Function][]int
	rpo   map[*ssa.Function][]*ssa.BasicBlock
}

type ptsKey struct {
	o *pointer.Origin
	v ssa.Value
}

func newObjects(ptr *pointer.Result) *objects {
	return &objects{
		ptr:   ptr,
		ids:   make(map[pointer.Location]int32),
		pts:   make(map[ptsKey][]int32),
		comps: make(map[*ssa.Function][]int),
		rpo:   make(map[*ssa.Function][]*ssa.BasicBlock),
	}
}

// id returns the number of a location.
func (s *objects) id(loc pointer.Location) int32 {
	if id, ok := s.ids[loc]; ok {
		return id
	}
	id := int32(len(s.locs))
	s.ids[loc] = id
	s.locs = append(s.locs, loc)
	return id
}

// pointsTo returns the numbers of the locations v may point to in o.
func (s *objects) pointsTo(o *pointer.Origin, v ssa.Value) []int32 {
	k := ptsKey{o, v}
	if ids, ok := s.pts[k]; ok {
		return ids
	}
	var ids []int32
	for _, loc := range s.ptr.PointsToIn(o, v) {
		ids = append(ids, s.id(loc))
	}
	s.pts[k] = ids
	return ids
}

// of returns the one location v points to in o, or -1 when it may
// point to several or none: an edge needs the same object on both sides.
func (s *objects) of(o *pointer.Origin, v ssa.Value) int32 {
	if ids := s.pointsTo(o, v); len(ids) == 1 {
		return ids[0]
	}
	return -1
}

func (s *objects) components(fn *ssa.Function) []int {
	c, ok := s.comps[fn]
	if !ok {
		c = loops.Components(fn)
		s.comps[fn] = c
	}
	return c
}

func (s *objects) order(fn *ssa.Function) []*ssa.BasicBlock {
	o, ok := s.rpo[fn]
	if !ok {
		o = loops.Order(fn)
		s.rpo[fn] = o
	}
	return o
}
