module pta

go 1.21
