module example.com/covapp

go 1.24
