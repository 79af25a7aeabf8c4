module example.com/heavysetup

go 1.24
