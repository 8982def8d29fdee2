module loopvar

go 1.21

require pta v0.0.0

replace pta => ../src/pta
