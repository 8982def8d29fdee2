module loopvar

go 1.21
