module loopvar

go 1.22
