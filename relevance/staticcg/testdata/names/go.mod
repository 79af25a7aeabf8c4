module example.com/names

go 1.24
